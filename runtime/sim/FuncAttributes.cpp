//===- FuncAttributes.cpp - What a program set on its kernels -------------===//

#include "FuncAttributes.h"
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
  double Shared = static_cast<double>(DynamicShared);
  if (const orrery_kernel_entry *E = registeredKernel(Func)) {
    orrery_kernel_counts C =
        E->counts(orrery_dim3{1, 1, 1}, orrery_dim3{L.ThreadsPerBlock, 1, 1},
                  DynamicShared, nullptr);
    Shared += C.shared_static_bytes;
    if (C.registers_per_thread > 0)
      L.RegistersPerThread = static_cast<unsigned>(C.registers_per_thread);
  }
  L.SharedBytesPerBlock = static_cast<unsigned>(Shared);
  L.CarveoutPercent = funcAttributesOf(Func).CarveoutPercent;
  return models::computeOccupancy(G, L);
}

} // namespace orrery::sim
