//===- FuncAttributes.h - What a program set on its kernels -----*- C++ -*-===//
//
// cudaFuncSetAttribute and cudaFuncSetCacheConfig settings per kernel (by
// host stub), and the occupancy they give with the kernel's registered hint
// (its static shared memory and ptxas registers): the one computation that
// launches and cudaOccupancyMaxActiveBlocksPerMultiprocessor share.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_SIM_FUNCATTRIBUTES_H
#define ORRERY_SIM_FUNCATTRIBUTES_H

#include "orrery/models/KernelModel.h"

namespace orrery::sim {

struct FuncAttributes {
  int CarveoutPercent = -1;  ///< preferred shared-memory carveout; -1: none
  int MaxDynamicShared = -1; ///< cudaFuncAttributeMaxDynamicSharedMemorySize
};

/// The settings of the kernel whose stub is \p Func (created on first use).
FuncAttributes &funcAttributes(const void *Func);
/// The settings of \p Func, defaults if it has none.
FuncAttributes funcAttributesOf(const void *Func);

/// Resident blocks per SM of \p Func launched with blocks of \p BlockSize
/// threads and \p DynamicShared bytes, from its registered hint and its
/// settings (models::computeOccupancy).
models::Occupancy kernelOccupancy(const models::GpuParams &G, const void *Func,
                                  int BlockSize, size_t DynamicShared);

} // namespace orrery::sim

#endif
