//===- LauncherEnv.h - The rank a launcher gave this process ----*- C++ -*-===//
//
// A native run's outputs are per process; which rank a process is comes from
// the launcher's environment (mpirun, srun), read without calling MPI so
// that outputs are written at exit, after MPI_Finalize.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_RUNTIME_NATIVE_LAUNCHERENV_H
#define ORRERY_RUNTIME_NATIVE_LAUNCHERENV_H

#include <string>

namespace orrery::native {

/// The world rank the launcher set (Open MPI, PMIx, PMI, Slurm), else -1.
long worldRank();
/// The world size the launcher set, else -1.
long worldSize();
/// \p Env's file name with %r replaced by \p Rank and %p by the process id;
/// empty when the name has neither and this is not rank 0 (ranks writing
/// one file would overwrite each other).
std::string outputPath(const char *Env, long Rank);
/// \p S with every \p From replaced by \p To.
void replaceAll(std::string &S, const std::string &From, const std::string &To);

} // namespace orrery::native

#endif
