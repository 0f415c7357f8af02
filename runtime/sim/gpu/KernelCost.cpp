//===- KernelCost.cpp - Time of one launch --------------------------------===//

#include "KernelCost.h"

namespace orrery::sim {

models::ThreadCounts threadCounts(const orrery_kernel_counts &C) {
  models::ThreadCounts T;
#define ORRERY_KERNEL_COUNT(Name, Missing) T.Name = C.Name;
#include "orrery/kernel_counts.def"
#undef ORRERY_KERNEL_COUNT
  return T;
}

models::KernelWork kernelWork(const orrery_kernel_counts &C) {
  return models::kernelWork(threadCounts(C));
}

LaunchCost launchCost(const models::GpuParams &G, const orrery_kernel_counts *C,
                      orrery_dim3 Grid, orrery_dim3 Block,
                      unsigned long long DynamicShared, int CarveoutPercent,
                      double L2Share, bool InGraph) {
  LaunchCost R;
  models::LaunchConfig L;
  L.CarveoutPercent = CarveoutPercent;
  L.InGraph = InGraph;
  L.Blocks = static_cast<std::uint64_t>(Grid.x) * Grid.y * Grid.z;
  L.ThreadsPerBlock = Block.x * Block.y * Block.z;
  L.SharedBytesPerBlock = static_cast<std::uint32_t>(DynamicShared);
  // No hint: an empty kernel, only launch overhead and the floor.
  models::ThreadCounts T;
  if (C)
    T = threadCounts(*C);
  models::LaunchPrediction P = models::predictLaunch(G, T, L, L2Share);
  R.Launch = G.Launch;
  if (C && C->measured_seconds >= 0) {
    // A measured duration from the user's side file wins over any model.
    R.Memory = C->measured_seconds;
    R.Measured = true;
  } else {
    if (!P.Roofline.ok()) {
      R.Error = P.Roofline.Error;
      return R;
    }
    // The model's Launch part is t_launch (host time) plus the kernel's
    // device overhead, counted here with memory.
    double Device = P.Roofline.Time.total() - G.Launch;
    R.Compute = P.Roofline.Time[models::CostCategory::Compute];
    R.Memory = Device > R.Compute ? Device - R.Compute : 0;
    R.Estimate = P.Roofline.Time.estimated() > 0;
  }
  R.Flops = P.Flops;
  R.Bytes = P.Bytes;
  if (!C || C->confidence >= ORRERY_CONFIDENCE_DEFAULTED)
    R.Estimate = true;
  return R;
}

} // namespace orrery::sim
