//===- ReportData.cpp - The simulation report, read -----------------------===//

#include "ReportData.h"
#include "ReportPrinter.h"
#include "orrery/formats/Formats.h"
#include "orrery/formats/ReportCheck.h"
#include "orrery/support/ReadFile.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

using nlohmann::json;

namespace orrery::run {

namespace {

namespace F = formats::report;

std::string text(const json &Obj, const char *Key) {
  auto It = Obj.find(Key);
  return It != Obj.end() && It->is_string() ? It->get<std::string>() : "";
}

std::optional<double> number(const json &Obj, const char *Key) {
  auto It = Obj.find(Key);
  if (It == Obj.end() || !It->is_number())
    return std::nullopt;
  return It->get<double>();
}

const json &member(const json &Obj, const char *Key) {
  static const json None;
  auto It = Obj.find(Key);
  return It == Obj.end() ? None : *It;
}

} // namespace

bool parseReport(const json &J, ReportData &Out, std::string &Error) {
  if (!J.is_object()) {
    Error = "the report must be a JSON object";
    return false;
  }
  // Types and the fields every reader needs, against the schema: below,
  // what is there has the schema's type.
  if (!formats::checkReport(J, formats::CheckMode::Read, Error))
    return false;
  const json &M = member(J, F::Machine);
  if (M.is_object()) {
    Out.Machine = text(M, F::MachineName);
    Out.MachineFile = text(M, F::MachineFile);
  }
  Out.NetworkMode = text(J, F::NetworkMode);
  Out.Ranks = *number(J, F::Ranks);
  Out.Nodes = number(J, F::Nodes);
  Out.RanksPerNode = number(J, F::RanksPerNode);
  Out.Simulated = number(J, F::SimulatedSeconds)
                      .value_or(number(J, F::MeasuredSeconds).value_or(0));
  Out.Wall = number(J, F::WallSeconds);
  const json &B = member(J, F::Breakdown);
  for (const formats::ReportCategory &C : formats::reportCategories())
    if (B.contains(C.Key) || C.When == formats::Presence::Always)
      Out.Breakdown.emplace_back(C.Label, number(B, C.Key).value_or(0));
  // Categories this printer does not know are shown, not dropped.
  for (const auto &[Key, Value] : B.items()) {
    bool Known = std::any_of(formats::reportCategories().begin(),
                             formats::reportCategories().end(),
                             [&Key = Key](const formats::ReportCategory &C) {
                               return Key == C.Key;
                             });
    if (Known)
      continue;
    std::string Label = Key;
    std::replace(Label.begin(), Label.end(), '_', ' ');
    Out.Breakdown.emplace_back(Label, Value.get<double>());
  }
  Out.GpuSeconds = number(J, F::GpuSeconds);
  Out.GpuEstimated = number(J, F::GpuEstimatedSeconds);
  Out.KernelTime = text(J, F::KernelTime);
  const json &BM = member(J, F::BreakdownMeasured);
  if (BM.is_object())
    for (const auto &[Key, Value] : BM.items())
      Out.MeasuredSeconds += Value.get<double>();
  const json &Ks = member(J, F::Kernels);
  if (Ks.is_array())
    for (const json &K : Ks) {
      Kernel Row;
      Row.Name = text(K, F::KernelName);
      Row.Site = text(K, F::KernelSite);
      Row.Confidence = text(K, F::KernelConfidence);
      Row.Hint = text(K, F::KernelHint);
      Row.Launches = number(K, F::KernelLaunches).value_or(0);
      Row.Flops = number(K, F::KernelFlops).value_or(0);
      Row.Bytes = number(K, F::KernelBytes).value_or(0);
      Row.Seconds = number(K, F::KernelSeconds).value_or(0);
      Out.Kernels.push_back(Row);
    }
  std::stable_sort(
      Out.Kernels.begin(), Out.Kernels.end(),
      [](const Kernel &A, const Kernel &B) { return A.Seconds > B.Seconds; });
  const json &C = member(J, F::Completed);
  Out.Completed = !C.is_boolean() || C.get<bool>();
  const json &Fail = member(J, F::Failure);
  if (Fail.is_object()) {
    Out.Failure = text(Fail, F::FailureReason);
    const json &Rs = member(Fail, F::FailureRanks);
    if (Rs.is_array())
      for (const json &E : Rs)
        Out.FailedRanks.push_back(E.get<std::string>());
  }
  const json &Rd = member(J, F::DeviceReads);
  if (Rd.is_array())
    for (const json &E : Rd) {
      DeviceRead Row;
      Row.Site = text(E, F::ReadSite);
      Row.Via = text(E, F::ReadVia);
      Row.Api = text(E, F::ReadApi);
      Row.Type = text(E, F::ReadType);
      Row.Value = text(E, F::ReadValue);
      Row.Last = text(E, F::ReadLastValue);
      Row.From = text(E, F::ReadValueFrom);
      Row.Reads = number(E, F::ReadCount).value_or(0);
      Row.Bytes = number(E, F::ReadBytes).value_or(0);
      Out.Reads.push_back(Row);
    }
  const json &Sh = member(J, F::SharedHost);
  if (Sh.is_object()) {
    Out.SharedAllocations = number(Sh, F::SharedAllocations);
    Out.SharedBytes = number(Sh, F::SharedBytes);
    Out.SharedThreshold = number(Sh, F::SharedThreshold);
  }
  const json &Ev = member(J, F::Events);
  if (Ev.is_object()) {
    Events E;
    E.Kernels = number(Ev, F::EventKernels).value_or(0);
    E.Copies = number(Ev, F::EventCopies).value_or(0);
    E.MpiMessages = number(Ev, F::EventMpiMessages).value_or(0);
    E.MpiCollectives = number(Ev, F::EventMpiCollectives).value_or(0);
    E.PerWallSecond = number(Ev, F::EventsPerWallSecond).value_or(0);
    Out.Counts = E;
  }
  const json &W = member(J, F::Warnings);
  if (W.is_array())
    for (const json &E : W)
      Out.Warnings.push_back(E.get<std::string>());
  return true;
}

bool readReport(const std::string &Path, json &Out, std::string &Error) {
  std::string Text, Reason;
  if (!support::readFile(Path, Text, &Reason)) {
    Error = Path + ": cannot read the report (" + Reason + ")";
    return false;
  }
  try {
    Out = json::parse(Text);
  } catch (const json::exception &E) {
    // Syntax errors, and numbers beyond a double's range.
    Error = Path + ": not valid JSON: " + E.what();
    return false;
  }
  return true;
}

} // namespace orrery::run
