//===- Trace.cpp - Chrome-trace timeline and result files -----------------===//
//
// The timeline is the Trace Event Format read by chrome://tracing and
// Perfetto: one process per rank, thread 0 its host, thread k its stream k;
// times in microseconds of simulated time.
//
//===----------------------------------------------------------------------===//

#include "Accounting.h"
#include "orrery/support/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <set>

namespace orrery::sim {

bool Report::writeTrace(const std::string &Path, int Ranks,
                        std::string &Error) const {
  nlohmann::json Events = nlohmann::json::array();
  std::set<std::pair<int, int>> Tracks;
  for (const TraceSpan &S : Spans)
    Tracks.insert({S.Rank, S.Track});
  for (int R = 0; R < Ranks; ++R)
    Events.push_back({{"name", "process_name"},
                      {"ph", "M"},
                      {"pid", R},
                      {"args", {{"name", "rank " + std::to_string(R)}}}});
  for (auto [R, T] : Tracks)
    Events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", R},
                      {"tid", T},
                      {"args",
                       {{"name", T == 0           ? std::string("host")
                                 : T == NvtxTrack ? std::string("NVTX")
                                                  : "stream " + std::to_string(T)}}}});
  for (const TraceSpan &S : Spans)
    Events.push_back({{"name", S.Name},
                      {"cat", S.Track == NvtxTrack
                                  ? std::string("nvtx")
                                  : std::string(categoryKey(S.Cat))},
                      {"ph", "X"},
                      {"pid", S.Rank},
                      {"tid", S.Track},
                      {"ts", S.Start * 1e6},
                      {"dur", S.Duration * 1e6}});
  nlohmann::json J = {{"traceEvents", Events}, {"displayTimeUnit", "ns"}};
  return support::writeFileAtomically(Path, J.dump() + "\n", Error);
}

} // namespace orrery::sim
