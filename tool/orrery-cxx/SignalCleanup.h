//===- SignalCleanup.h - orrery-cxx: no temporary directory left -*- C++
//-*-===//
//
// A build interrupted with ^C (SIGINT), stopped (SIGTERM, SIGHUP) or whose
// output reader went away (`orrery-cxx ... 2>&1 | head -1`: SIGPIPE) would
// otherwise leave its temporary directory behind. The handler removes it
// with async-signal-safe system calls only, then dies of the same signal.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_TOOL_CXX_SIGNALCLEANUP_H
#define ORRERY_TOOL_CXX_SIGNALCLEANUP_H

#include <string>

namespace orrery {
namespace cxx {

/// Removes Dir (and everything below it) if the process is killed by
/// SIGHUP, SIGINT, SIGPIPE or SIGTERM. One directory at a time.
void removeOnSignal(const std::string &Dir);
/// Dir is removed (or kept) by the caller from now on.
void clearRemoveOnSignal();

} // namespace cxx
} // namespace orrery

#endif
