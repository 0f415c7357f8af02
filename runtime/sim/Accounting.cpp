//===- Accounting.cpp - The JSON report of a simulation -------------------===//

#include "Accounting.h"
#include "orrery/hooks.h"
#include "orrery/models/KernelCounts.h"
#include "orrery/support/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace orrery::sim {

std::string_view categoryKey(Category C) {
  switch (C) {
  case Category::Launch:
    return "launch";
  case Category::KernelCompute:
    return "kernel_compute";
  case Category::KernelMemory:
    return "kernel_memory";
  case Category::Copies:
    return "copies";
  case Category::DeviceLegs:
    return "device_legs";
  case Category::HostBounce:
    return "host_bounce";
  case Category::Reduction:
    return "reduction";
  case Category::Network:
    return "network";
  case Category::CallOverhead:
    return "call_overhead";
  case Category::Sync:
    return "sync";
  case Category::HostCompute:
    return "host_compute";
  case Category::Nccl:
    return "nccl";
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
  nlohmann::ordered_json J;
  J["schema"] = "orrery-sim-report/1";
  J["machine"] = {{"name", S.MachineName}, {"file", S.MachineFile}};
  J["network_mode"] = S.NetworkMode;
  J["ranks"] = S.Ranks;
  J["nodes"] = S.Nodes;
  J["ranks_per_node"] = S.RanksPerNode;
  J["completed"] = S.Failure.empty();
  if (!S.Failure.empty())
    J["failure"] = {{"reason", S.Failure},
                    {"exit_status", S.FailureStatus},
                    {"ranks", S.FailedRanks}};
  J["simulated_seconds"] = S.SimulatedSeconds;
  J["wall_seconds"] = S.WallSeconds;
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
  J["breakdown"] = B;
  // Twin mode: the part of each category measured on the real GPU (the
  // rest is modelled).
  nlohmann::ordered_json BM = nlohmann::ordered_json::object();
  for (int I = 0; I < NumCategories; ++I)
    if (Shown(I))
      BM[std::string(categoryKey(static_cast<Category>(I)))] =
          S.Total.Measured[I];
  J["breakdown_measured"] = BM;
  J["kernel_time"] = S.DeviceTime;
  J["gpu_seconds"] = GpuSeconds;
  J["gpu_estimated_seconds"] = GpuEstimated;
  std::vector<const KernelTotals *> Sorted;
  for (const auto &KV : Kernels)
    Sorted.push_back(&KV.second);
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [](const KernelTotals *A, const KernelTotals *B) {
                     return A->Seconds > B->Seconds;
                   });
  nlohmann::ordered_json Ks = nlohmann::ordered_json::array();
  for (const KernelTotals *K : Sorted)
    Ks.push_back({{"name", K->Name},
                  {"site", K->Site},
                  {"launches", K->Launches},
                  {"flops", K->Flops},
                  {"bytes", K->Bytes},
                  {"seconds", K->Seconds},
                  {"estimated_seconds", K->EstimatedSeconds},
                  {"measured_seconds", K->MeasuredSeconds},
                  {"time", timeSource(*K)},
                  {"confidence", confidenceName(K->Confidence)},
                  {"hint", K->Hint}});
  J["kernels"] = Ks;
  nlohmann::ordered_json Rs = nlohmann::ordered_json::array();
  for (const auto &KV : Reads) {
    nlohmann::ordered_json R = {{"site", KV.second.Site}};
    if (!KV.second.Via.empty())
      R["via"] = KV.second.Via;
    R.update({{"api", KV.second.Api},
              {"type", KV.second.Type},
              {"reads", KV.second.Reads},
              {"bytes", KV.second.Bytes},
              {"value", KV.second.Value},
              {"last_value", KV.second.Last},
              {"value_from", KV.second.Source}});
    Rs.push_back(std::move(R));
  }
  J["device_reads"] = Rs;
  // Every instrumented call site, as a native report lists them (api, site,
  // calls, seconds; summed over ranks), so orrery-compare lines them up.
  nlohmann::ordered_json Ss = nlohmann::ordered_json::array();
  for (const auto &KV : Sites)
    Ss.push_back({{"api", KV.second.Api},
                  {"site", KV.second.Site},
                  {"calls", KV.second.Calls},
                  {"seconds", KV.second.Seconds}});
  J["sites"] = Ss;
  J["shared_host"] = {{"threshold_bytes", S.SharedThreshold},
                      {"allocations", S.SharedAllocations},
                      {"bytes", S.SharedBytes}};
  J["rank_clock"] = {{"charges_ahead", S.ChargesAhead},
                     {"catch_ups", S.CatchUps}};
  nlohmann::ordered_json W = nlohmann::ordered_json::array();
  for (const auto &KV : Warnings)
    W.push_back(KV.second > 1
                    ? KV.first + " (" + std::to_string(KV.second) + " times)"
                    : KV.first);
  J["warnings"] = W;
  return support::writeFileAtomically(Path, J.dump(2) + "\n", Error);
}

} // namespace orrery::sim
