//===- Trace.cpp - The simulated Chrome-trace timeline --------------------===//
//
// The timeline is the Trace Event Format read by chrome://tracing and
// Perfetto (written by orrery/trace/TraceFile.h, shared with
// liborrery-native): one process per rank, thread 0 its host, thread k its
// stream k; times in microseconds of simulated time.
//
//===----------------------------------------------------------------------===//

#include "Accounting.h"
#include "orrery/support/AtomicFile.h"

#include "orrery/trace/TraceFile.h"

namespace orrery::sim {

bool Report::writeTrace(const std::string &Path, int Ranks,
                        std::string &Error) const {
  trace::Timeline T;
  for (int R = 0; R < Ranks; ++R)
    T.Processes[R] = "rank " + std::to_string(R);
  for (const TraceSpan &S : Spans)
    T.Threads[{S.Rank, S.Track}] = S.Track == 0 ? std::string("host")
                                   : S.Track == NvtxTrack
                                       ? std::string("NVTX")
                                       : "stream " + std::to_string(S.Track);
  T.Spans.reserve(Spans.size());
  for (const TraceSpan &S : Spans)
    T.Spans.push_back({S.Rank, S.Track, S.Start, S.Duration, S.Name,
                       S.Track == NvtxTrack ? std::string("nvtx")
                                            : std::string(categoryKey(S.Cat))});
  return support::writeFileAtomically(Path, trace::chromeTraceText(T), Error);
}

} // namespace orrery::sim
