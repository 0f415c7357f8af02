//===- FuncAttributes.cpp - What a program set on its kernels -------------===//

#include "FuncAttributes.h"
#include "KernelCost.h"
#include "KernelRegistry.h"

#include <unordered_map>

namespace orrery::sim {
namespace {
std::unordered_map<const void *, FuncAttributes> &table() {
  static auto *T = new std::unordered_map<const void *, FuncAttributes>;
  return *T;
}
} // namespace

FuncAttributes &funcAttributes(const void *Func) { return table()[Func]; }

FuncAttributes funcAttributesOf(const void *Func) {
  auto It = table().find(Func);
  return It == table().end() ? FuncAttributes() : It->second;
}

models::Occupancy kernelOccupancy(const models::GpuParams &G, const void *Func,
                                  int BlockSize, size_t DynamicShared) {
  models::LaunchConfig L;
  L.ThreadsPerBlock = BlockSize > 0 ? static_cast<unsigned>(BlockSize) : 0;
  L.SharedBytesPerBlock = static_cast<unsigned>(DynamicShared);
  L.CarveoutPercent = funcAttributesOf(Func).CarveoutPercent;
  if (std::optional<orrery_kernel_counts> C =
          kernelResources(Func, L.ThreadsPerBlock, DynamicShared))
    L = models::withKernelResources(threadCounts(*C), L);
  return models::computeOccupancy(G, L);
}

} // namespace orrery::sim
