//===- TraceFile.cpp - Chrome-trace timelines and whole result files ------===//

#include "orrery/trace/TraceFile.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <unistd.h>

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

bool writeFileAtomically(const std::string &Path, const std::string &Text,
                         std::string &Error) {
  std::string Tmp = Path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream OS(Tmp, std::ios::binary | std::ios::trunc);
    if (!OS) {
      Error = "cannot write '" + Tmp + "': " + std::strerror(errno);
      return false;
    }
    OS << Text;
    OS.flush();
    if (!OS) {
      Error = "cannot write '" + Tmp + "': " + std::strerror(errno);
      std::remove(Tmp.c_str());
      return false;
    }
  }
  if (std::rename(Tmp.c_str(), Path.c_str()) != 0) {
    Error = "cannot rename '" + Tmp + "' to '" + Path +
            "': " + std::strerror(errno);
    std::remove(Tmp.c_str());
    return false;
  }
  return true;
}

} // namespace orrery::trace
