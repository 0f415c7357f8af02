//===- liveness.h - is a peer's process still there? ------------*- C++ -*-===//
//
// A process publishes its identity (host, PID, start time) with its
// endpoint address. A peer on the same host and in the same PID namespace
// can then tell that it exited, was killed, or is a zombie, without any
// connection state (the shm provider has none): /proc/PID/stat is gone,
// says zombie, or belongs to a newer process that reused the PID. Peers on
// other hosts cannot be checked this way (Unknown): there RAMC relies on the
// provider's errors and on deadlines.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_LIVENESS_H
#define RAMC_SRC_LIVENESS_H

#include <cstdint>

namespace ramc {

struct ProcessIdentity {
  /// The boot of the host and the PID namespace (a hash; 0: unknown).
  uint64_t Host = 0;
  uint32_t Pid = 0;
  /// Start time in clock ticks since boot (/proc/PID/stat, field 22).
  uint64_t Start = 0;
};

enum class Liveness { Alive, Gone, Unknown };

/// This process's identity (computed once).
const ProcessIdentity &selfIdentity();

/// Whether the process P still runs. Unknown when P is on another host or
/// in another PID namespace, or when this one's identity is unknown.
Liveness checkProcess(const ProcessIdentity &P);

} // namespace ramc

#endif
