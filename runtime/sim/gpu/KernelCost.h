//===- KernelCost.h - Time of one launch from its evaluated hint -*- C++
//-*-===//

#ifndef ORRERY_SIM_KERNELCOST_H
#define ORRERY_SIM_KERNELCOST_H

#include "orrery/hooks.h"
#include "orrery/models/KernelModel.h"

namespace orrery::sim {

struct LaunchCost {
  double Launch = 0;  ///< CPU side: t_launch
  double Compute = 0; ///< device time bound by arithmetic
  double Memory = 0;  ///< device time bound by memory (or latency floor)
  double Flops = 0, Bytes = 0;
  bool Estimate = false; ///< rests on estimated or defaulted numbers
  bool Measured = false; ///< from a --kernel-overrides duration
  std::string Error;     ///< the launch cannot run on this GPU
  double device() const { return Compute + Memory; }
};

/// The hook ABI's counts as the models' ThreadCounts.
models::ThreadCounts threadCounts(const orrery_kernel_counts &C);

/// The models' work totals for one launch of \p C (counts per active
/// thread).
models::KernelWork kernelWork(const orrery_kernel_counts &C);

/// Cost of a launch; \p C may be null (no hint: an empty kernel).
/// \p CarveoutPercent is the kernel's preferred shared-memory carveout
/// (-1: none); \p L2Share the share of its bytes an earlier launch left in
/// L2; \p InGraph: a kernel node of a graph.
LaunchCost launchCost(const models::GpuParams &G, const orrery_kernel_counts *C,
                      orrery_dim3 Grid, orrery_dim3 Block,
                      unsigned long long DynamicShared,
                      int CarveoutPercent = -1, double L2Share = 0,
                      bool InGraph = false);

} // namespace orrery::sim

#endif // ORRERY_SIM_KERNELCOST_H
