//===- TraceFile.h - Chrome-trace timelines -------------------*- C++ -*-===//
//
// The timeline both runtimes write for ORRERY_TRACE: the Trace Event Format
// read by chrome://tracing and Perfetto, one process per rank and one
// thread per track (a rank's host, its streams), times in microseconds.
// liborrery-sim fills it with simulated time, liborrery-native with wall
// time since the library loaded.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TRACE_TRACEFILE_H
#define ORRERY_TRACE_TRACEFILE_H

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace orrery::trace {

/// One complete event ("ph": "X").
struct Span {
  int Process = 0, Thread = 0;
  double Start = 0, Duration = 0; ///< seconds
  std::string Name, Category;
};

struct Timeline {
  std::map<int, std::string> Processes;                 ///< pid -> name
  std::map<std::pair<int, int>, std::string> Threads; ///< (pid, tid) -> name
  std::vector<Span> Spans;
};

/// The timeline as Trace Event Format JSON (one line): the process and
/// thread names first, then the spans in the order given.
std::string chromeTraceText(const Timeline &T);

} // namespace orrery::trace

#endif // ORRERY_TRACE_TRACEFILE_H
