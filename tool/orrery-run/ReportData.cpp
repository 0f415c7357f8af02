//===- ReportData.cpp - The simulation report, read -----------------------===//

#include "ReportData.h"
#include "ReportPrinter.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

using nlohmann::json;

namespace orrery::run {

namespace {

/// The categories of the breakdown, in the order they are printed.
const std::pair<const char *, const char *> Categories[] = {
    {"launch", "launch"},
    {"kernel_compute", "kernel compute"},
    {"kernel_memory", "kernel memory"},
    {"copies", "copies"},
    {"device_legs", "device legs"},
    {"host_bounce", "host bounce"},
    {"reduction", "reduction"},
    {"network", "network"},
    {"call_overhead", "call overhead"},
    {"sync", "sync"},
};

/// Reads fields, recording the first problem with the field's path.
class FieldReader {
public:
  std::string Error;

  const json *member(const json &Obj, const std::string &Where, const char *Key,
                     bool Required) {
    auto It = Obj.find(Key);
    if (It == Obj.end()) {
      if (Required)
        fail("missing '" + path(Where, Key) + "'");
      return nullptr;
    }
    return &*It;
  }

  /// A finite number >= 0.
  std::optional<double> number(const json &Obj, const std::string &Where,
                               const char *Key, bool Required) {
    const json *V = member(Obj, Where, Key, Required);
    if (!V)
      return std::nullopt;
    return number(*V, path(Where, Key));
  }

  std::optional<double> number(const json &V, const std::string &Path) {
    if (!V.is_number()) {
      fail("'" + Path + "' must be a number, not " + V.dump());
      return std::nullopt;
    }
    double D = V.get<double>();
    if (!std::isfinite(D) || D < 0) {
      fail("'" + Path + "' must be a finite number >= 0, not " + V.dump());
      return std::nullopt;
    }
    return D;
  }

  std::string text(const json &Obj, const std::string &Where, const char *Key,
                   bool Required) {
    const json *V = member(Obj, Where, Key, Required);
    if (!V)
      return "";
    if (!V->is_string()) {
      fail("'" + path(Where, Key) + "' must be a string, not " + V->dump());
      return "";
    }
    return V->get<std::string>();
  }

  const json *object(const json &Obj, const std::string &Where, const char *Key,
                     bool Required) {
    const json *V = member(Obj, Where, Key, Required);
    if (V && !V->is_object()) {
      fail("'" + path(Where, Key) + "' must be an object");
      return nullptr;
    }
    return V;
  }

  const json *array(const json &Obj, const char *Key) {
    const json *V = member(Obj, "", Key, false);
    if (V && !V->is_array()) {
      fail("'" + std::string(Key) + "' must be an array");
      return nullptr;
    }
    return V;
  }

  bool ok() const { return Error.empty(); }

  static std::string path(const std::string &Where, const std::string &Key) {
    return Where.empty() ? Key : Where + "." + Key;
  }

private:
  void fail(const std::string &Msg) {
    if (Error.empty())
      Error = Msg;
  }
};

bool parseKernels(const json &Kernels, FieldReader &R, ReportData &Out) {
  for (std::size_t I = 0; I < Kernels.size() && R.ok(); ++I) {
    std::string Where = "kernels[" + std::to_string(I) + "]";
    const json &K = Kernels[I];
    if (!K.is_object()) {
      R.Error = "'" + Where + "' must be an object";
      return false;
    }
    Kernel Row;
    Row.Name = R.text(K, Where, "name", true);
    Row.Site = R.text(K, Where, "site", false);
    Row.Confidence = R.text(K, Where, "confidence", false);
    Row.Hint = R.text(K, Where, "hint", false);
    Row.Launches = R.number(K, Where, "launches", true).value_or(0);
    Row.Flops = R.number(K, Where, "flops", false).value_or(0);
    Row.Bytes = R.number(K, Where, "bytes", false).value_or(0);
    Row.Seconds = R.number(K, Where, "seconds", true).value_or(0);
    Out.Kernels.push_back(Row);
  }
  std::stable_sort(
      Out.Kernels.begin(), Out.Kernels.end(),
      [](const Kernel &A, const Kernel &B) { return A.Seconds > B.Seconds; });
  return R.ok();
}

bool parseDeviceReads(const json &Reads, FieldReader &R, ReportData &Out) {
  for (std::size_t I = 0; I < Reads.size() && R.ok(); ++I) {
    std::string Where = "device_reads[" + std::to_string(I) + "]";
    const json &E = Reads[I];
    if (!E.is_object()) {
      R.Error = "'" + Where + "' must be an object";
      return false;
    }
    DeviceRead Row;
    Row.Site = R.text(E, Where, "site", true);
    Row.Via = R.text(E, Where, "via", false);
    Row.Api = R.text(E, Where, "api", false);
    Row.Type = R.text(E, Where, "type", false);
    Row.Value = R.text(E, Where, "value", true);
    Row.Last = R.text(E, Where, "last_value", false);
    Row.From = R.text(E, Where, "value_from", false);
    Row.Reads = R.number(E, Where, "reads", true).value_or(0);
    Row.Bytes = R.number(E, Where, "bytes", false).value_or(0);
    Out.Reads.push_back(Row);
  }
  return R.ok();
}

} // namespace

bool parseReport(const json &J, ReportData &Out, std::string &Error) {
  if (!J.is_object()) {
    Error = "the report must be a JSON object";
    return false;
  }
  FieldReader R;
  std::string Schema = R.text(J, "", "schema", true);
  if (R.ok() && Schema != ReportSchema) {
    Error = "unsupported schema '" + Schema + "'; this orrery-run reads '" +
            ReportSchema + "'";
    return false;
  }
  if (const json *M = R.object(J, "", "machine", false)) {
    Out.Machine = R.text(*M, "machine", "name", false);
    Out.MachineFile = R.text(*M, "machine", "file", false);
  }
  Out.NetworkMode = R.text(J, "", "network_mode", false);
  Out.Ranks = R.number(J, "", "ranks", true).value_or(0);
  if (R.ok() && (Out.Ranks < 1 || Out.Ranks != std::floor(Out.Ranks)))
    R.Error = "'ranks' must be a whole number >= 1";
  Out.Nodes = R.number(J, "", "nodes", false);
  Out.RanksPerNode = R.number(J, "", "ranks_per_node", false);
  Out.Simulated = R.number(J, "", "simulated_seconds", true).value_or(0);
  Out.Wall = R.number(J, "", "wall_seconds", false);
  if (const json *B = R.object(J, "", "breakdown", true)) {
    for (const auto &[Key, Label] : Categories) {
      double S = R.number(*B, "breakdown", Key, false).value_or(0);
      Out.Breakdown.emplace_back(Label, S);
    }
    // Categories this printer does not know are shown, not dropped.
    for (const auto &[Key, Value] : B->items()) {
      bool Known =
          std::any_of(std::begin(Categories), std::end(Categories),
                      [&Key = Key](const auto &C) { return Key == C.first; });
      if (Known)
        continue;
      double S = R.number(Value, "breakdown." + Key).value_or(0);
      std::string Label = Key;
      std::replace(Label.begin(), Label.end(), '_', ' ');
      Out.Breakdown.emplace_back(Label, S);
    }
  }
  Out.GpuSeconds = R.number(J, "", "gpu_seconds", false);
  Out.GpuEstimated = R.number(J, "", "gpu_estimated_seconds", false);
  Out.KernelTime = R.text(J, "", "kernel_time", false);
  if (const json *BM = R.object(J, "", "breakdown_measured", false))
    for (const auto &[Key, Value] : BM->items())
      Out.MeasuredSeconds +=
          R.number(Value, "breakdown_measured." + Key).value_or(0);
  if (const json *K = R.array(J, "kernels"))
    parseKernels(*K, R, Out);
  if (const json *C = R.member(J, "", "completed", false))
    Out.Completed = !C->is_boolean() || C->get<bool>();
  if (const json *F = R.object(J, "", "failure", false)) {
    Out.Failure = R.text(*F, "failure", "reason", false);
    if (const json *Rs = R.member(*F, "failure", "ranks", false))
      if (Rs->is_array())
        for (const json &E : *Rs)
          if (E.is_string())
            Out.FailedRanks.push_back(E.get<std::string>());
  }
  if (J.contains("device_reads"))
    if (const json *Rd = R.array(J, "device_reads"))
      parseDeviceReads(*Rd, R, Out);
  if (const json *Sh = R.object(J, "", "shared_host", false)) {
    Out.SharedAllocations = R.number(*Sh, "shared_host", "allocations", false);
    Out.SharedBytes = R.number(*Sh, "shared_host", "bytes", false);
    Out.SharedThreshold =
        R.number(*Sh, "shared_host", "threshold_bytes", false);
  }
  if (const json *W = R.array(J, "warnings")) {
    for (std::size_t I = 0; I < W->size() && R.ok(); ++I) {
      if (!(*W)[I].is_string())
        R.Error = "'warnings[" + std::to_string(I) + "]' must be a string";
      else
        Out.Warnings.push_back((*W)[I].get<std::string>());
    }
  }
  Error = R.Error;
  return R.ok();
}

bool readReport(const std::string &Path, json &Out, std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = Path + ": cannot read the report";
    return false;
  }
  std::stringstream Text;
  Text << In.rdbuf();
  try {
    Out = json::parse(Text.str());
  } catch (const json::exception &E) {
    // Syntax errors, and numbers beyond a double's range.
    Error = Path + ": not valid JSON: " + E.what();
    return false;
  }
  return true;
}

} // namespace orrery::run
