//===- KernelCost.cpp - Time of one launch --------------------------------===//

#include "KernelCost.h"

namespace orrery::sim {

models::KernelWork kernelWork(const orrery_kernel_counts &C) {
  models::ThreadCounts T;
  T.ActiveThreads = C.active_threads;
  T.Fp32 = {C.fp32_add, C.fp32_mul,  C.fp32_fma,
            C.fp32_div, C.fp32_sqrt, C.fp32_transc};
  T.Fp64 = {C.fp64_add, C.fp64_mul,  C.fp64_fma,
            C.fp64_div, C.fp64_sqrt, C.fp64_transc};
  T.IntOps = C.int_ops;
  T.LoadBytes = C.load_bytes;
  T.StoreBytes = C.store_bytes;
  T.LoadFootprint = C.load_footprint;
  T.StoreFootprint = C.store_footprint;
  return models::kernelWork(T);
}

LaunchCost launchCost(const models::GpuParams &G, const orrery_kernel_counts *C,
                      orrery_dim3 Grid, orrery_dim3 Block,
                      unsigned long long DynamicShared) {
  LaunchCost R;
  models::LaunchConfig L;
  L.Blocks = static_cast<std::uint64_t>(Grid.x) * Grid.y * Grid.z;
  L.ThreadsPerBlock = Block.x * Block.y * Block.z;
  double Static = C ? C->shared_static_bytes : 0;
  L.SharedBytesPerBlock =
      static_cast<std::uint32_t>(Static + static_cast<double>(DynamicShared));
  models::KernelWork W;
  if (C)
    W = kernelWork(*C);
  else
    W.ActiveThreads = 0; // no hint: only launch overhead and the floor
  R.Launch = G.Launch;
  if (C && C->measured_seconds >= 0) {
    // A measured duration from the user's side file wins over any model.
    R.Memory = C->measured_seconds;
    R.Measured = true;
  } else {
    models::KernelEstimate E = models::kernelTime(G, W, L);
    if (!E.ok()) {
      R.Error = E.Error;
      return R;
    }
    // The model's Launch part is t_launch plus the latency floor of tiny
    // kernels; the floor is device time, counted here with memory.
    double Device = E.Time.total() - G.Launch;
    R.Compute = E.Time[models::CostCategory::Compute];
    R.Memory = Device > R.Compute ? Device - R.Compute : 0;
    R.Estimate = E.Time.estimated() > 0;
  }
  for (double F : W.Flops)
    R.Flops += F;
  R.Bytes = W.BytesRead + W.BytesWritten;
  if (!C || C->confidence >= ORRERY_CONFIDENCE_DEFAULTED)
    R.Estimate = true;
  return R;
}

} // namespace orrery::sim
