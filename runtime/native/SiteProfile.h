//===- SiteProfile.h - Per-site call counts and times -----------*- C++ -*-===//
//
// What one process of a native run records: per site, how often it ran, the
// wall time it took and the bytes its calls moved; per category (MPI, CUDA
// copies, launches, ...) the time spent in outermost calls between MPI_Init's
// return and MPI_Finalize's start. At exit it writes ORRERY_PROFILE (per-site
// counts), ORRERY_REPORT (schema orrery-sim-report/1, "kind": "measured"; see
// docs/compare.md) and ORRERY_TRACE (a Chrome-trace/Perfetto timeline of
// every call, in the simulator's format: orrery/trace/TraceFile.h; on a GPU,
// kernels and asynchronous copies on their streams' tracks).
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_RUNTIME_NATIVE_SITEPROFILE_H
#define ORRERY_RUNTIME_NATIVE_SITEPROFILE_H

#include "DeviceSpans.h"
#include "orrery/hooks.h"
#include "orrery/trace/TraceFile.h"

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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
  /// Kernels and copies timed on the device (DeviceSpans.h): per site, their
  /// device time; spans on the timeline's stream tracks. \p Untimed: calls
  /// that could not be timed so far.
  void recordDevice(const std::vector<DeviceSpan> &Done,
                    unsigned long long Untimed);
  /// Seconds from the library's load to \p T (the timeline's origin).
  double sinceLoad(Clock::time_point T) const;
  /// Writes the profile to Path as JSON; returns false on I/O failure.
  bool write(const std::string &Path) const;
  /// Writes the measured report to Path; false with Error on failure.
  bool writeReport(const std::string &Path, std::string &Error) const;
  /// Writes the timeline (ORRERY_TRACE) to Path; false with Error on failure.
  bool writeTrace(const std::string &Path, std::string &Error) const;
  ~SiteProfile();

private:
  SiteProfile();
  struct Entry {
    unsigned long long Calls = 0;
    double Seconds = 0;
    long long Bytes = 0;
    /// Calls timed on the device and their device time (DeviceSpans.h).
    unsigned long long DeviceCalls = 0;
    double DeviceSeconds = 0;
  };
  mutable std::mutex Lock;
  std::map<const orrery_site *, Entry> Sites;
  /// Seconds per report category (keys as in the simulator's breakdown).
  std::map<std::string, double> Categories;
  Clock::time_point Loaded, WindowBegin, WindowEnd;
  bool HaveBegin = false, HaveEnd = false;
  /// ORRERY_TRACE is set: every call becomes a span (host thread k of this
  /// process is track k, in order of first call).
  bool Tracing = false;
  std::vector<trace::Span> Spans;
  std::map<std::thread::id, int> Threads;
  /// Device streams in order of first span: stream k is track
  /// FirstStreamTrack + k.
  std::map<const void *, int> Streams;
  unsigned long long UntimedDevice = 0;
};

/// The report category of a call of \p Site, or "" for MPI_Init,
/// MPI_Init_thread and MPI_Finalize (outside the measured window).
std::string categoryOf(const orrery_site *Site);

} // namespace orrery::native

#endif
