//===- Slurm.h - orrery-sweep: a Slurm job array for a study ----*- C++ -*-===//

#ifndef ORRERY_TOOL_SWEEP_SLURM_H
#define ORRERY_TOOL_SWEEP_SLURM_H

#include "Study.h"

#include <string>

namespace orrery::sweep {

/// Memory (MiB) asked for a point of \p Np ranks when the study sets none:
/// 1 GiB plus 64 MiB per simulated rank, rounded up to whole GiB.
long slurmMemMiB(int Np);

/// The sbatch script running point $SLURM_ARRAY_TASK_ID of \p S with
/// \p OrreryRun, its report and log going to \p Dir (absolute).
std::string slurmScript(const Study &S, const std::string &Dir,
                        const std::string &OrreryRun);

/// Writes DIR/sweep.json, each point's point.json and DIR/sweep.sbatch.
bool writeSlurm(const std::string &Dir, const Study &S,
                const std::string &OrreryRun, std::string &ScriptPath,
                std::string &Error);

/// \p S quoted for a POSIX shell where needed.
std::string shellQuote(const std::string &S);

} // namespace orrery::sweep

#endif // ORRERY_TOOL_SWEEP_SLURM_H
