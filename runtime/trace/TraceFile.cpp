//===- TraceFile.cpp - Chrome-trace timelines and whole result files ------===//

#include "orrery/trace/TraceFile.h"

#include <nlohmann/json.hpp>


namespace orrery::trace {

std::string chromeTraceText(const Timeline &T) {
  nlohmann::json Events = nlohmann::json::array();
  for (const auto &[Pid, Name] : T.Processes)
    Events.push_back({{"name", "process_name"},
                      {"ph", "M"},
                      {"pid", Pid},
                      {"args", {{"name", Name}}}});
  for (const auto &[Track, Name] : T.Threads)
    Events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", Track.first},
                      {"tid", Track.second},
                      {"args", {{"name", Name}}}});
  for (const Span &S : T.Spans)
    Events.push_back({{"name", S.Name},
                      {"cat", S.Category},
                      {"ph", "X"},
                      {"pid", S.Process},
                      {"tid", S.Thread},
                      {"ts", S.Start * 1e6},
                      {"dur", S.Duration * 1e6}});
  nlohmann::json J = {{"traceEvents", Events}, {"displayTimeUnit", "ns"}};
  return J.dump() + "\n";
}

} // namespace orrery::trace
