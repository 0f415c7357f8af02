//===- Runner.h - orrery-sweep: running points on this machine --*- C++ -*-===//

#ifndef ORRERY_TOOL_SWEEP_RUNNER_H
#define ORRERY_TOOL_SWEEP_RUNNER_H

#include "Study.h"

#include <ostream>
#include <string>

namespace orrery::sweep {

struct RunnerOptions {
  std::string OrreryRun; // the orrery-run to start
  unsigned Jobs = 0;     // 0: from cores and memory
  bool Terminal = false; // redraw the progress line in place
};

/// Runs every point of \p S not done yet in DIR, at most Jobs at a time,
/// then writes DIR/results.csv. Returns 0 when every point is done, 1 when
/// some failed, 128 + N when signal N interrupted the sweep.
int runLocal(const std::string &Dir, const Study &S, const RunnerOptions &O,
             std::ostream &Out, std::ostream &Err);

/// The default number of concurrent points: the cores, fewer when a point
/// of \p MaxNp ranks would need more memory than is available, judging from
/// a first point of \p SmallNp ranks that used \p SmallRssKiB.
unsigned defaultJobs(unsigned Cores, double AvailableKiB, long SmallRssKiB,
                     int SmallNp, int MaxNp);

} // namespace orrery::sweep

#endif // ORRERY_TOOL_SWEEP_RUNNER_H
