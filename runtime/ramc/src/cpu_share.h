//===- cpu_share.h - does this node run more processes than CPUs? -*- C++
//-*-===//
//
// Waiting (fabric_wait.cpp, spin_budget.cpp) spins on dedicated cores and
// gives way on oversubscribed ones, so RAMC needs to know which it is on.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_CPU_SHARE_H
#define RAMC_SRC_CPU_SHARE_H

#include <string>

namespace ramc {

/// CPUs in a Linux CPU list ("0-3,8,10-11"); -1 when it is malformed.
long countCpuList(const std::string &List);

/// Whether a node is oversubscribed: it runs Local of the job's processes
/// (0: unknown) and has NodeCpus CPUs for the job (0: unknown; then the Own
/// CPUs this process may use stand for them). A process bound to fewer CPUs
/// than the node runs processes is not oversubscribed on that account:
/// launchers bind each process to its own cores (Open MPI by default,
/// Slurm's --cpu-bind).
bool isOversubscribed(long Local, long OwnCpus, long NodeCpus);

/// Whether this node is oversubscribed (isOversubscribed), from the
/// launchers' local-size variables (Open MPI, MPICH and Hydra, Slurm), this
/// process's CPU affinity and nodeCpus().
bool nodeOversubscribed();

/// The CPUs this process's control group may use (cgroup v2
/// cpuset.cpus.effective, v1 cpuset.effective_cpus), else the online CPUs;
/// 0 when neither is known.
long nodeCpus();

} // namespace ramc

#endif
