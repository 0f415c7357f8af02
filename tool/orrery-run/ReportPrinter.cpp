//===- ReportPrinter.cpp - The human-readable simulation report -----------===//

#include "ReportPrinter.h"
#include "ReportData.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

using nlohmann::json;

namespace orrery::run {

namespace {

/// Kernels listed before "... and N more".
constexpr std::size_t MaxKernelRows = 20;

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
  if (D.Counts) {
    // What the simulation's cost grows with, and how fast it went through.
    const Events &E = *D.Counts;
    double Total = E.Kernels + E.Copies + E.MpiMessages + E.MpiCollectives;
    T.add({"events", format("%.0f (", Total) +
                         format("%.0f kernels, ", E.Kernels) +
                         format("%.0f copies, ", E.Copies) +
                         format("%.0f MPI messages, ", E.MpiMessages) +
                         format("%.0f MPI collectives), ", E.MpiCollectives) +
                         format("%.3g per wall s", E.PerWallSecond)});
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
    T.add({R.Via.empty() ? R.Site : R.Site + " via " + R.Via,
           R.Api.empty() ? "-" : R.Api, format("%.0f", R.Reads),
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
