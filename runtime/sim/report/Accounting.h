//===- Accounting.h - Where simulated time went -----------------*- C++ -*-===//
//
// Categories of the report (docs/simulate.md), per-rank accounts, per-kernel
// totals, warnings, and the report and trace files written at the end.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_ACCOUNTING_H
#define ORRERY_SIM_ACCOUNTING_H

#include "orrery/hooks.h"

#include <array>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace orrery::sim {

/// The breakdown's categories a simulation charges, in the report's order
/// (formats/include/orrery/formats/ReportCategories.def says what each
/// holds; docs/report.md).
enum class Category {
#define ORRERY_REPORT_CATEGORY(Id, Key, Label, Sum, Presence, Meaning) Id,
#define ORRERY_MEASURED_CATEGORY(Id, Key, Label, Sum, Presence, Meaning)
#include "orrery/formats/ReportCategories.def"
#undef ORRERY_REPORT_CATEGORY
};
constexpr int NumCategories = 0
#define ORRERY_REPORT_CATEGORY(Id, Key, Label, Sum, Presence, Meaning) +1
#define ORRERY_MEASURED_CATEGORY(Id, Key, Label, Sum, Presence, Meaning)
#include "orrery/formats/ReportCategories.def"
#undef ORRERY_REPORT_CATEGORY
    ;
std::string_view categoryKey(Category C); ///< "kernel_compute"

/// Seconds per category, the part of them resting on estimates and the
/// part measured on a real GPU (twin mode).
struct Accounts {
  std::array<double, NumCategories> Seconds{};
  std::array<double, NumCategories> Measured{};
  double Estimated = 0;
  void add(Category C, double S, bool Estimate, bool IsMeasured = false) {
    Seconds[static_cast<int>(C)] += S;
    if (Estimate)
      Estimated += S;
    if (IsMeasured)
      Measured[static_cast<int>(C)] += S;
  }
};

struct KernelTotals {
  std::string Name, Site;
  unsigned long long Launches = 0;
  double Flops = 0, Bytes = 0, Seconds = 0, EstimatedSeconds = 0;
  double MeasuredSeconds = 0; ///< part measured on a real GPU (twin mode)
  unsigned long long MeasuredLaunches = 0;
  int Confidence = -1; ///< worst ORRERY_CONFIDENCE_* seen; -1: no hint
  /// Where the hint came from: "site" (the launch site's generated hint),
  /// "registry" (resolved by the kernel's address), "library" (a library
  /// model of thrust/CUB) or "none".
  const char *Hint = "none";
};

/// One device-to-host read site (docs/simulate.md, "device reads"), kept
/// under its FILE:LINE:COLUMN.
struct DeviceReadTotals {
  std::string Site; ///< FILE:LINE:COLUMN of the read
  std::string Via;  ///< the caller's line whose value it took, or ""
  std::string Api, Type;
  std::string Value;  ///< what was written: the user's value, or "0"
  std::string Last;   ///< the value the last read got (a schedule's latest)
  std::string Source; ///< "default", "--device-value" or "pragma"
  unsigned long long Reads = 0;
  double Bytes = 0;
};

/// The calls of one instrumented site (summed over ranks), kept under
/// FILE:LINE:COLUMN API so that the report lists them in source order with
/// the keys of a native report (api, site = FILE:LINE).
struct SiteTotals {
  std::string Api, Site;
  unsigned long long Calls = 0;
  double Seconds = 0; ///< simulated time from the call's begin to its end
};

/// The timeline track of NVTX ranges (NvtxRanges.cpp).
constexpr int NvtxTrack = -1;

/// One span of the timeline: a rank's host track (Track 0) or a stream.
struct TraceSpan {
  int Rank = 0, Track = 0;
  double Start = 0, Duration = 0;
  std::string Name;
  Category Cat = Category::Launch;
};

class Report {
public:
  KernelTotals &kernel(const std::string &Key) { return Kernels[Key]; }
  DeviceReadTotals &deviceRead(const std::string &Key) { return Reads[Key]; }
  /// The totals of \p Site's calls, created on first use (the pointer
  /// stays valid: ranks keep it, see Rank::siteRow).
  SiteTotals *siteRow(const orrery_site *Site);
  void warn(const std::string &Message) { ++Warnings[Message]; }
  bool tracing() const { return Tracing; }
  void setTracing(bool On) { Tracing = On; }
  void span(TraceSpan S) {
    if (Tracing)
      Spans.push_back(std::move(S));
  }
  void addGpuTime(double S, bool Estimate) {
    GpuSeconds += S;
    if (Estimate)
      GpuEstimated += S;
  }

  struct Summary {
    std::string MachineName, MachineFile, NetworkMode;
    int Ranks = 0, Nodes = 0, RanksPerNode = 0;
    double SimulatedSeconds = 0, WallSeconds = 0;
    Accounts Total; ///< summed over ranks
    /// "measured" (twin mode: kernels timed on a real GPU) or "modelled".
    std::string DeviceTime = "modelled";
    /// orrery-run --host-compute: host code was timed and charged, so the
    /// breakdown has a host_compute row (without it there is none to show).
    bool HostCompute = false;
    /// Large host allocations shared by all ranks (SharedHost.h).
    unsigned long long SharedAllocations = 0, SharedBytes = 0,
                       SharedThreshold = 0;
    /// RankClock.h: CPU charges and kernel waits the ranks took ahead of
    /// SimGrid's clock (no simulation step), and the sleeps that caught
    /// them up.
    unsigned long long ChargesAhead = 0, CatchUps = 0;
    /// Why the run did not complete (empty: it did), the exit status it
    /// should end with, and what the ranks left were doing.
    std::string Failure;
    int FailureStatus = 0;
    std::vector<std::string> FailedRanks;
  };
  /// Writes the JSON report (schema orrery-sim-report/1); false on failure.
  bool writeJson(const std::string &Path, const Summary &S,
                 std::string &Error) const;
  /// Writes a Chrome-trace/Perfetto JSON timeline.
  bool writeTrace(const std::string &Path, int Ranks, std::string &Error) const;

private:
  std::map<std::string, KernelTotals> Kernels;
  std::map<std::string, DeviceReadTotals> Reads;
  /// By (file, line, column, api): source order, one row for the copies of
  /// a site in each rank's copy of the program.
  std::map<std::tuple<std::string, unsigned, unsigned, std::string>, SiteTotals>
      Sites;
  std::map<std::string, unsigned long long> Warnings;
  std::vector<TraceSpan> Spans;
  bool Tracing = false;
  double GpuSeconds = 0, GpuEstimated = 0;
};

} // namespace orrery::sim

#endif // ORRERY_SIM_ACCOUNTING_H
