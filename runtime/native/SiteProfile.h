//===- SiteProfile.h - Per-site call counts and times -----------*- C++ -*-===//
//
// What one process of a native run records: per site, how often it ran, the
// wall time it took and the bytes its calls moved; per category (MPI, CUDA copies, launches, ...) the
// time spent in outermost calls between MPI_Init's return and MPI_Finalize's
// start. At exit it writes ORRERY_PROFILE (per-site counts) and
// ORRERY_REPORT (schema orrery-sim-report/1, "kind": "measured"; see
// NativeReport.h and docs/compare.md).
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_RUNTIME_NATIVE_SITEPROFILE_H
#define ORRERY_RUNTIME_NATIVE_SITEPROFILE_H

#include "orrery/hooks.h"

#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace orrery::native {

using Clock = std::chrono::steady_clock;

class SiteProfile {
public:
  static SiteProfile &instance();
  /// One call of \p Site from \p Begin to \p End that moved \p Bytes;
  /// \p Outermost when no other site was open on the thread (only those
  /// count toward the categories).
  void record(const orrery_site *Site, Clock::time_point Begin,
              Clock::time_point End, long long Bytes, bool Outermost);
  /// Writes the profile to Path as JSON; returns false on I/O failure.
  bool write(const std::string &Path) const;
  /// Writes the measured report to Path; false with Error on failure.
  bool writeReport(const std::string &Path, std::string &Error) const;
  ~SiteProfile();

private:
  SiteProfile();
  struct Entry {
    unsigned long long Calls = 0;
    double Seconds = 0;
    long long Bytes = 0;
  };
  mutable std::mutex Lock;
  std::map<const orrery_site *, Entry> Sites;
  /// Seconds per report category (keys as in the simulator's breakdown).
  std::map<std::string, double> Categories;
  Clock::time_point Loaded, WindowBegin, WindowEnd;
  bool HaveBegin = false, HaveEnd = false;
};

/// The report category of a call of \p Site, or "" for MPI_Init,
/// MPI_Init_thread and MPI_Finalize (outside the measured window).
std::string categoryOf(const orrery_site *Site);

} // namespace orrery::native

#endif
