//===- KernelRegistry.h - Kernels known by their stub's address -*- C++ -*-===//
//
// Instrumented translation units register every kernel they define (each
// template instantiation) with a function evaluating its hint from a
// launch's argument array (hooks.h, orrery_register_kernels). A launch that
// no site hints (a function pointer, cudaLaunchKernel, a graph node, a macro
// body, another translation unit) is resolved here by its host stub's
// address, as CUDA resolves a launch to its device function.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_SIM_KERNELREGISTRY_H
#define ORRERY_SIM_KERNELREGISTRY_H

#include "orrery/hooks.h"

#include <optional>

namespace orrery::sim {

/// The registered kernel whose host stub is \p Func, or null: a kernel
/// compiled without the instrumenter (a prebuilt library, a stripped
/// program). Answers from a cache after the first launch of each stub.
const orrery_kernel_entry *registeredKernel(const void *Func);

/// \p Func's registered hint for one block of \p BlockThreads threads and
/// \p DynamicShared bytes, with no arguments: what does not depend on them
/// (static shared memory, ptxas registers); none when \p Func has no entry.
std::optional<orrery_kernel_counts>
kernelResources(const void *Func, unsigned BlockThreads,
                unsigned long long DynamicShared);

} // namespace orrery::sim

#endif
