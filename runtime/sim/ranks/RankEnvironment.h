//===- RankEnvironment.h - What a launcher tells each rank ------*- C++ -*-===//
//
// mpirun, srun and friends give every process its own rank, local rank and
// sizes in environment variables; programs pick their GPU from them before
// or instead of MPI calls. SMPI ranks share one process and so one
// environment: getenv() of a program built by orrery-cxx in skeleton mode
// comes here first (the link wraps it), and each rank reads its own values.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_RANKENVIRONMENT_H
#define ORRERY_SIM_RANKENVIRONMENT_H

namespace orrery::sim {

/// The calling rank's value of the launcher variable \p Name
/// (OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID, ...), or nullptr when \p Name
/// is no such variable or the caller is not a simulated rank.
const char *rankEnvironment(const char *Name);

/// True when the caller is an SMPI rank actor.
bool inRankActor();

} // namespace orrery::sim

#endif // ORRERY_SIM_RANKENVIRONMENT_H
