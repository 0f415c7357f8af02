//===- ProcessorSharing.h - Jobs sharing one processor equally --*- C++ -*-===//
//
// Egalitarian processor sharing: n jobs running at once on one processor
// each progress at 1/n of its speed. This is how the simulator shares a GPU
// among kernels that run on it at the same time (SimGrid shares a host among
// its executions the same way), here as arithmetic on times alone, for the
// GPU a rank keeps to itself and advances without SimGrid
// (docs/simulate.md, "Kernels sharing a GPU").
//
// A job is its work left, in seconds it would take alone, and its projected
// end. Between two ends nothing changes but the work left, so a set of jobs
// is advanced end by end, and its ends are projected from the work left.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_PROCESSORSHARING_H
#define ORRERY_MODELS_PROCESSORSHARING_H

#include <cstddef>
#include <vector>

namespace orrery::models {

struct SharedJob {
  double Work = 0;     ///< seconds it would still take alone; > 0 while running
  double End = 0;      ///< projected end (absolute time)
  std::size_t Tag = 0; ///< the caller's, to find its job after a sort
};

/// Projects each job's end when all of them share the processor from
/// \p From on with the work they have left then and none joins: the least
/// work ends first, all n sharing until then; then the n - 1 others.
/// Reorders \p Jobs by work left.
void projectSharedEnds(std::vector<SharedJob> &Jobs, double From);

/// Brings the jobs' work left from \p From to \p To, their ends projected
/// from \p From (projectSharedEnds, or as left by an earlier advance with no
/// job joining since): between two ends each of the n still running does
/// 1/n of the time. A job that ends by \p To has no work left. Nothing
/// changes when \p To is not after \p From. Reorders \p Jobs by end.
void advanceShared(std::vector<SharedJob> &Jobs, double From, double To);

} // namespace orrery::models

#endif // ORRERY_MODELS_PROCESSORSHARING_H
