//===- SweepDir.h - orrery-sweep: which directories a sweep may write -*- C++
//-*-===//
//
// A sweep writes sweep.json, results.csv and points/ in its output directory,
// replacing what is there: it writes only to a directory that is new, empty,
// or already a sweep's (its sweep.json says so), and only one sweep at a
// time (DIR/.lock, held with flock while the sweep runs).
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_SWEEP_SWEEPDIR_H
#define ORRERY_TOOL_SWEEP_SWEEPDIR_H

#include <string>

namespace orrery::sweep {

/// The lock on a sweep directory, released when it goes (or the process
/// ends, however it ends).
class SweepDirLock {
public:
  SweepDirLock() = default;
  SweepDirLock(const SweepDirLock &) = delete;
  SweepDirLock &operator=(const SweepDirLock &) = delete;
  ~SweepDirLock();
  int Fd = -1;
};

/// Makes \p Dir ours for a sweep of \p StudyFile: creates it if it does not
/// exist; refuses (false, \p Error naming what to do) a path that is not a
/// directory, a directory with files of someone else, or one another sweep
/// holds.
bool claimSweepDir(const std::string &Dir, const std::string &StudyFile,
                   SweepDirLock &Lock, std::string &Error);

/// Takes \p Dir's lock only (for `collect`, which rewrites results.csv);
/// false with \p Error when a sweep holds it.
bool lockSweepDir(const std::string &Dir, SweepDirLock &Lock,
                  std::string &Error);

} // namespace orrery::sweep

#endif // ORRERY_TOOL_SWEEP_SWEEPDIR_H
