//===- Accounting.cpp - The JSON report of a simulation -------------------===//

#include "Accounting.h"
#include "Events.h"
#include "orrery/formats/Formats.h"
#include "orrery/hooks.h"
#include "orrery/models/KernelCounts.h"
#include "orrery/support/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace orrery::sim {

std::string_view categoryKey(Category C) {
  switch (C) {
#define ORRERY_REPORT_CATEGORY(Id, Key, Label, Sum, Presence, Meaning)         \
  case Category::Id:                                                           \
    return Key;
#define ORRERY_MEASURED_CATEGORY(Id, Key, Label, Sum, Presence, Meaning)
#include "orrery/formats/ReportCategories.def"
#undef ORRERY_REPORT_CATEGORY
  }
  return "unknown";
}

/// Where a kernel's time came from: "modelled" (the cost hint),
/// "measured" (twin mode: on the real GPU) or "mixed".
static const char *timeSource(const KernelTotals &K) {
  if (K.MeasuredLaunches == 0)
    return "modelled";
  return K.MeasuredLaunches == K.Launches ? "measured" : "mixed";
}

SiteTotals *Report::siteRow(const orrery_site *Site) {
  // Every rank's copy of the program has its own site record: one row per
  // source location. (Called once per rank and site, see Rank::siteRow.)
  SiteTotals &T = Sites[{Site->file, Site->line, Site->column, Site->api}];
  if (T.Api.empty()) {
    T.Api = Site->api;
    T.Site = std::string(Site->file) + ":" + std::to_string(Site->line);
  }
  return &T;
}

static const char *confidenceName(int C) {
  std::optional<models::Confidence> Known = models::confidenceOfCode(C);
  return Known ? models::confidenceName(*Known) : "none";
}

bool Report::writeJson(const std::string &Path, const Summary &S,
                       std::string &Error) const {
  namespace F = formats::report;
  nlohmann::ordered_json J;
  J[F::Schema] = formats::ReportSchema;
  J[F::Machine] = {{F::MachineName, S.MachineName},
                   {F::MachineFile, S.MachineFile}};
  J[F::NetworkMode] = S.NetworkMode;
  J[F::Ranks] = S.Ranks;
  J[F::Nodes] = S.Nodes;
  J[F::RanksPerNode] = S.RanksPerNode;
  J[F::Completed] = S.Failure.empty();
  if (!S.Failure.empty())
    J[F::Failure] = {{F::FailureReason, S.Failure},
                     {F::FailureExitStatus, S.FailureStatus},
                     {F::FailureRanks, S.FailedRanks}};
  J[F::SimulatedSeconds] = S.SimulatedSeconds;
  J[F::WallSeconds] = S.WallSeconds;
  // host_compute is a row only when host code was charged (--host-compute):
  // otherwise the simulation did not time it and a 0 would claim it did.
  // nccl is a row only for programs that made NCCL operations.
  auto Shown = [&S](int I) {
    auto C = static_cast<Category>(I);
    if (C == Category::HostCompute)
      return S.HostCompute;
    if (C == Category::Nccl)
      return S.Total.Seconds[I] > 0;
    return true;
  };
  nlohmann::ordered_json B = nlohmann::ordered_json::object();
  for (int I = 0; I < NumCategories; ++I)
    if (Shown(I))
      B[std::string(categoryKey(static_cast<Category>(I)))] =
          S.Total.Seconds[I];
  J[F::Breakdown] = B;
  // Twin mode: the part of each category measured on the real GPU (the
  // rest is modelled).
  nlohmann::ordered_json BM = nlohmann::ordered_json::object();
  for (int I = 0; I < NumCategories; ++I)
    if (Shown(I))
      BM[std::string(categoryKey(static_cast<Category>(I)))] =
          S.Total.Measured[I];
  J[F::BreakdownMeasured] = BM;
  J[F::KernelTime] = S.DeviceTime;
  J[F::GpuSeconds] = GpuSeconds;
  J[F::GpuEstimatedSeconds] = GpuEstimated;
  std::vector<const KernelTotals *> Sorted;
  for (const auto &KV : Kernels)
    Sorted.push_back(&KV.second);
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [](const KernelTotals *A, const KernelTotals *B) {
                     return A->Seconds > B->Seconds;
                   });
  nlohmann::ordered_json Ks = nlohmann::ordered_json::array();
  for (const KernelTotals *K : Sorted)
    Ks.push_back({{F::KernelName, K->Name},
                  {F::KernelSite, K->Site},
                  {F::KernelLaunches, K->Launches},
                  {F::KernelFlops, K->Flops},
                  {F::KernelBytes, K->Bytes},
                  {F::KernelSeconds, K->Seconds},
                  {F::KernelEstimatedSeconds, K->EstimatedSeconds},
                  {F::KernelMeasuredSeconds, K->MeasuredSeconds},
                  {F::KernelTimeSource, timeSource(*K)},
                  {F::KernelConfidence, confidenceName(K->Confidence)},
                  {F::KernelHint, K->Hint}});
  J[F::Kernels] = Ks;
  nlohmann::ordered_json Rs = nlohmann::ordered_json::array();
  for (const auto &KV : Reads) {
    nlohmann::ordered_json R = {{F::ReadSite, KV.second.Site}};
    if (!KV.second.Via.empty())
      R[F::ReadVia] = KV.second.Via;
    R.update({{F::ReadApi, KV.second.Api},
              {F::ReadType, KV.second.Type},
              {F::ReadCount, KV.second.Reads},
              {F::ReadBytes, KV.second.Bytes},
              {F::ReadValue, KV.second.Value},
              {F::ReadLastValue, KV.second.Last},
              {F::ReadValueFrom, KV.second.Source}});
    Rs.push_back(std::move(R));
  }
  J[F::DeviceReads] = Rs;
  // Every instrumented call site, as a native report lists them (api, site,
  // calls, seconds; summed over ranks), so orrery-compare lines them up.
  nlohmann::ordered_json Ss = nlohmann::ordered_json::array();
  for (const auto &KV : Sites)
    Ss.push_back({{F::SiteApi, KV.second.Api},
                  {F::SiteWhere, KV.second.Site},
                  {F::SiteCalls, KV.second.Calls},
                  {F::SiteSeconds, KV.second.Seconds}});
  J[F::Sites] = Ss;
  J[F::SharedHost] = {{F::SharedThreshold, S.SharedThreshold},
                      {F::SharedAllocations, S.SharedAllocations},
                      {F::SharedBytes, S.SharedBytes}};
  J[F::RankClock] = {{F::ChargesAhead, S.ChargesAhead},
                     {F::CatchUps, S.CatchUps}};
  EventCounts E;
  for (const auto &KV : Kernels)
    E.Kernels += static_cast<double>(KV.second.Launches);
  for (const auto &KV : Sites)
    countCalls(E, KV.second.Api, static_cast<double>(KV.second.Calls));
  J[F::Events] = {{F::EventKernels, E.Kernels},
                  {F::EventCopies, E.Copies},
                  {F::EventMpiMessages, E.MpiMessages},
                  {F::EventMpiCollectives, E.MpiCollectives},
                  {F::EventsPerWallSecond,
                   S.WallSeconds > 0 ? E.total() / S.WallSeconds : 0.0}};
  nlohmann::ordered_json W = nlohmann::ordered_json::array();
  for (const auto &KV : Warnings)
    W.push_back(KV.second > 1
                    ? KV.first + " (" + std::to_string(KV.second) + " times)"
                    : KV.first);
  J[F::Warnings] = W;
  return support::writeFileAtomically(Path, J.dump(2) + "\n", Error);
}

} // namespace orrery::sim
