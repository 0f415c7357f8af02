//===- ReportPrinter.cpp - The human-readable simulation report -----------===//

#include "ReportPrinter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

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

/// Kernels listed before "... and N more".
constexpr std::size_t MaxKernelRows = 20;

struct Kernel {
  std::string Name, Site, Confidence, Hint;
  double Launches = 0, Flops = 0, Bytes = 0, Seconds = 0;
};

struct DeviceRead {
  std::string Site, Api, Type, Value, From;
  std::string Last; ///< the value the last read got (a schedule)
  double Reads = 0, Bytes = 0;
};

struct ReportData {
  std::string Machine, MachineFile, NetworkMode;
  double Ranks = 0;
  std::optional<double> Nodes, RanksPerNode, Wall, GpuSeconds, GpuEstimated;
  /// Twin mode: "measured", and the seconds measured on the real GPU.
  std::string KernelTime;
  double MeasuredSeconds = 0;
  double Simulated = 0;
  std::vector<std::pair<std::string, double>> Breakdown; ///< label, seconds
  std::vector<Kernel> Kernels;
  std::vector<DeviceRead> Reads;
  bool Completed = true;
  std::string Failure;
  std::vector<std::string> FailedRanks;
  std::optional<double> SharedAllocations, SharedBytes, SharedThreshold;
  std::vector<std::string> Warnings;
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

std::string format(const char *Fmt, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), Fmt, V);
  return Buf;
}

/// Seconds with a unit that keeps three decimals meaningful.
std::string formatTime(double S) {
  if (S == 0)
    return "0 s";
  if (S >= 1)
    return format("%.3f s", S);
  if (S >= 1e-3)
    return format("%.3f ms", S * 1e3);
  if (S >= 1e-6)
    return format("%.3f us", S * 1e6);
  return format("%.3f ns", S * 1e9);
}

std::string formatShare(double Part, double Whole) {
  return Whole > 0 ? format("%.1f%%", 100 * Part / Whole) : "-";
}

/// A table with left-aligned text columns and right-aligned number columns.
class Table {
public:
  explicit Table(std::vector<bool> RightAligned)
      : Right(std::move(RightAligned)) {}

  void add(std::vector<std::string> Row) { Rows.push_back(std::move(Row)); }

  void print(std::ostream &OS, const std::string &Indent) const {
    std::vector<std::size_t> Width(Right.size(), 0);
    for (const auto &Row : Rows)
      for (std::size_t C = 0; C < Row.size(); ++C)
        Width[C] = std::max(Width[C], Row[C].size());
    for (const auto &Row : Rows) {
      std::string Line = Indent;
      for (std::size_t C = 0; C < Row.size(); ++C) {
        std::string Pad(Width[C] - Row[C].size(), ' ');
        if (C)
          Line += "  ";
        Line += Right[C] ? Pad + Row[C] : Row[C] + Pad;
      }
      while (!Line.empty() && Line.back() == ' ')
        Line.pop_back();
      OS << Line << "\n";
    }
  }

private:
  std::vector<bool> Right;
  std::vector<std::vector<std::string>> Rows;
};

void printSummary(const ReportData &D, std::ostream &OS) {
  OS << "Orrery simulation report\n";
  Table T({false, false});
  if (!D.Machine.empty() || !D.MachineFile.empty()) {
    std::string M = D.Machine.empty() ? D.MachineFile : D.Machine;
    if (!D.Machine.empty() && !D.MachineFile.empty())
      M += " (" + D.MachineFile + ")";
    T.add({"machine", M});
  }
  if (!D.NetworkMode.empty())
    T.add({"network", D.NetworkMode});
  std::string Ranks =
      format("%.0f", D.Ranks) + (D.Ranks == 1 ? " rank" : " ranks");
  if (D.Nodes)
    Ranks += format(" on %.0f node", *D.Nodes) + (*D.Nodes == 1 ? "" : "s");
  if (D.RanksPerNode)
    Ranks += format(", %.0f per node", *D.RanksPerNode);
  T.add({"placement", Ranks});
  T.add({"simulated time", formatTime(D.Simulated)});
  if (D.Wall) {
    // The simulation's own rate tells how long a bigger run will take.
    std::string Rate;
    if (*D.Wall > 0)
      Rate = format(", %.3g simulated s per wall s", D.Simulated / *D.Wall);
    T.add(
        {"wall time", formatTime(*D.Wall) + " (simulation cost" + Rate + ")"});
  }
  T.print(OS, "  ");
}

/// A run that did not complete says so before any number.
void printFailure(const ReportData &D, std::ostream &OS) {
  if (D.Completed)
    return;
  OS << "\nTHE RUN DID NOT COMPLETE: "
     << (D.Failure.empty() ? std::string("see the messages above") : D.Failure)
     << "\n  The times below stop where the simulation stopped.\n";
  for (const std::string &R : D.FailedRanks)
    OS << "  " << R << "\n";
}

void printBreakdown(const ReportData &D, std::ostream &OS) {
  double Total = 0;
  for (const auto &C : D.Breakdown)
    Total += C.second;
  OS << "\nTime by category (seconds per rank on average; share of the "
        "total)\n";
  Table T({false, true, true});
  for (const auto &[Label, Seconds] : D.Breakdown)
    T.add({Label, formatTime(Seconds / D.Ranks), formatShare(Seconds, Total)});
  T.add({"total", formatTime(Total / D.Ranks), Total > 0 ? "100.0%" : "-"});
  T.print(OS, "  ");
  double PerRank = Total / D.Ranks;
  if (PerRank < 0.99 * D.Simulated)
    OS << "  (the categories cover " << formatTime(PerRank) << " of the "
       << formatTime(D.Simulated)
       << " simulated; the rest is time no hook charged, e.g. host code)\n";
  else if (PerRank > 1.01 * D.Simulated)
    OS << "  (the categories add up to more than the simulated time: "
          "asynchronous GPU work overlapped the host's)\n";
}

void printKernels(const ReportData &D, std::ostream &OS) {
  if (D.Kernels.empty()) {
    OS << "\nKernels: none launched\n";
    return;
  }
  OS << "\nKernels (" << D.Kernels.size() << ", by predicted time)\n";
  Table T({false, false, true, true, true, true, false});
  T.add({"name", "site", "launches", "GFLOP", "GB", "time", "confidence"});
  std::size_t Shown = std::min(D.Kernels.size(), MaxKernelRows);
  for (std::size_t I = 0; I < Shown; ++I) {
    const Kernel &K = D.Kernels[I];
    T.add({K.Name, K.Site.empty() ? "-" : K.Site, format("%.0f", K.Launches),
           format("%.3f", K.Flops / 1e9), format("%.3f", K.Bytes / 1e9),
           formatTime(K.Seconds), K.Confidence.empty() ? "-" : K.Confidence});
  }
  T.print(OS, "  ");
  if (Shown < D.Kernels.size())
    OS << "  ... and " << D.Kernels.size() - Shown
       << " more (see the JSON report)\n";
}

/// What the predicted GPU time rests on: its share by hint confidence, the
/// library models apart, and the kernels without a usable hint by time.
void printCoverage(const ReportData &D, std::ostream &OS) {
  double Total = 0;
  for (const Kernel &K : D.Kernels)
    Total += K.Seconds;
  if (D.Kernels.empty() || Total <= 0)
    return;
  const char *Classes[] = {"exact",         "symbolic", "defaulted",
                           "library model", "unknown",  "none"};
  auto ClassOf = [](const Kernel &K) -> std::string {
    if (K.Hint == "library")
      return "library model";
    return K.Confidence.empty() ? "none" : K.Confidence;
  };
  OS << "\nKernel time by hint confidence\n";
  Table T({false, true, true, true});
  T.add({"confidence", "kernels", "time", "share"});
  for (const char *C : Classes) {
    double Seconds = 0;
    int Rows = 0;
    for (const Kernel &K : D.Kernels)
      if (ClassOf(K) == C) {
        Seconds += K.Seconds;
        ++Rows;
      }
    if (Rows)
      T.add({C, format("%.0f", double(Rows)), formatTime(Seconds),
             formatShare(Seconds, Total)});
  }
  T.print(OS, "  ");
  std::vector<const Kernel *> Unresolved;
  for (const Kernel &K : D.Kernels)
    if (ClassOf(K) == "unknown" || ClassOf(K) == "none")
      Unresolved.push_back(&K);
  if (Unresolved.empty())
    return;
  OS << "Kernels without a usable hint (charged a default or as empty), by "
        "time:\n";
  std::size_t Shown = std::min<std::size_t>(Unresolved.size(), 10);
  for (std::size_t I = 0; I < Shown; ++I)
    OS << "  " << Unresolved[I]->Name << "  " << Unresolved[I]->Site << "  "
       << formatTime(Unresolved[I]->Seconds) << " ("
       << formatShare(Unresolved[I]->Seconds, Total) << ")\n";
  if (Shown < Unresolved.size())
    OS << "  ... and " << Unresolved.size() - Shown << " more\n";
}

void printEstimates(const ReportData &D, std::ostream &OS) {
  if (!D.GpuSeconds)
    return;
  OS << "\nGPU time resting on estimated or defaulted numbers: ";
  if (*D.GpuSeconds <= 0) {
    OS << "no GPU time\n";
    return;
  }
  double Estimated = D.GpuEstimated.value_or(0);
  OS << formatTime(Estimated) << " of " << formatTime(*D.GpuSeconds) << " ("
     << formatShare(Estimated, *D.GpuSeconds) << ")\n";
  if (D.KernelTime == "measured")
    OS << "Device time measured on this machine's GPU (twin mode): "
       << formatTime(D.MeasuredSeconds)
       << " summed over ranks (breakdown_measured); the rest is modelled\n";
}

std::string formatBytes(double B) {
  if (B >= 1ull << 30)
    return format("%.2f GiB", B / (1ull << 30));
  if (B >= 1 << 20)
    return format("%.2f MiB", B / (1 << 20));
  if (B >= 1 << 10)
    return format("%.2f KiB", B / (1 << 10));
  return format("%.0f B", B);
}

/// Every device-to-host read and what it got: a loop that ended early shows
/// here as a read of 0.
void printDeviceReads(const ReportData &D, std::ostream &OS) {
  if (D.Reads.empty())
    return;
  OS << "\nDevice reads (" << D.Reads.size()
     << (D.Reads.size() == 1 ? " site" : " sites")
     << "; simulated GPUs hold no data: each read gets the value shown)\n";
  Table T({false, false, true, true, false, false});
  T.add({"site", "call", "reads", "bytes", "value", "from"});
  for (const DeviceRead &R : D.Reads)
    T.add({R.Site, R.Api.empty() ? "-" : R.Api, format("%.0f", R.Reads),
           formatBytes(R.Bytes),
           R.Value + (R.Type.empty() ? "" : " (" + R.Type + ")") +
               // A schedule: where the last read was in it.
               (R.Last.empty() || R.Last == R.Value ? "" : ", last " + R.Last),
           R.From.empty() ? "-" : R.From});
  T.print(OS, "  ");
  OS << "  (set a value with orrery-run --device-value FILE:LINE=VALUE, or "
        "a schedule: FILE:LINE=1.0*59,1e-12)\n";
  // liborrery-sim names copies without a hook "(a copy outside ...)".
  bool Unhooked =
      std::any_of(D.Reads.begin(), D.Reads.end(), [](const DeviceRead &R) {
        return !R.Site.empty() && R.Site[0] == '(';
      });
  if (Unhooked)
    OS << "  (a copy outside instrumented code has no FILE:LINE that "
          "--device-value could name: it is in a file orrery-instrument "
          "did not rewrite (a header outside the source's and the -I "
          "directories, or a build with --orrery-no-headers); if a loop or "
          "a check depends on what it reads, move that copy into the "
          ".cu/.cpp file that calls it)\n";
}

void printSharedHost(const ReportData &D, std::ostream &OS) {
  if (!D.SharedAllocations || *D.SharedAllocations <= 0)
    return;
  OS << "\nShared host memory: " << format("%.0f", *D.SharedAllocations)
     << " allocations of " << formatBytes(D.SharedBytes.value_or(0))
     << " in all, at least " << formatBytes(D.SharedThreshold.value_or(0))
     << " each, share their pages among all ranks (their contents are not "
        "meaningful)\n";
}

void printWarnings(const ReportData &D, std::ostream &OS) {
  if (!D.Completed) {
    OS << "\nThe run did not complete: " << D.Failure << "\n";
    for (const std::string &W : D.Warnings)
      OS << "  " << W << "\n";
    return;
  }
  if (D.Warnings.empty()) {
    OS << "\nWarnings: none\n";
    return;
  }
  OS << "\nWarnings (" << D.Warnings.size() << ")\n";
  for (const std::string &W : D.Warnings)
    OS << "  " << W << "\n";
}

} // namespace

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

int reportExitStatus(const json &Report) {
  if (!Report.is_object() || !Report.contains("completed") ||
      !Report["completed"].is_boolean() || Report["completed"].get<bool>())
    return 0;
  const json *F = Report.contains("failure") ? &Report["failure"] : nullptr;
  if (F && F->is_object() && F->contains("exit_status") &&
      (*F)["exit_status"].is_number_integer()) {
    int S = (*F)["exit_status"].get<int>();
    if (S > 0 && S < 256)
      return S;
  }
  return 1;
}

bool printReport(const json &Report, std::ostream &OS, std::string &Error) {
  ReportData D;
  if (!parseReport(Report, D, Error))
    return false;
  printSummary(D, OS);
  printFailure(D, OS);
  printBreakdown(D, OS);
  printKernels(D, OS);
  printCoverage(D, OS);
  printEstimates(D, OS);
  printDeviceReads(D, OS);
  printSharedHost(D, OS);
  printWarnings(D, OS);
  return true;
}

} // namespace orrery::run
