//===- LibraryKernels.h - thrust/CUB kernels by a library model -*- C++ -*-===//
//
// Kernels launched from library headers (thrust algorithms, which launch
// CUB's kernels) have no cost hint: their headers are not instrumented. A
// skeleton program still holds their host stubs, under hidden symbols that
// dladdr cannot see; the object's own symbol table names them. A kernel of a
// known CUB family is then named after its algorithm and charged by a library
// model of its bytes (docs/kernel-cost.md#library-kernels): it reads and
// writes so many elements of num_items, read from the launch's arguments.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_SIM_LIBRARYKERNELS_H
#define ORRERY_SIM_LIBRARYKERNELS_H

#include "orrery/hooks.h"

#include <optional>
#include <string>
#include <string_view>

namespace orrery::sim {

struct LibraryLaunch {
  std::string Name; ///< "thrust::reduce (cub DeviceReduceKernel)"
  /// The library model for this launch; none when num_items or the element
  /// type could not be read (the launch is then an empty kernel).
  std::optional<orrery_kernel_counts> Counts;
};

/// The library model of a launch of the kernel whose demangled (stub) name is
/// \p StubName, with the launch's arguments \p Args; none when the kernel is of
/// no known family.
std::optional<LibraryLaunch> libraryModel(std::string_view StubName,
                                          void **Args, orrery_dim3 Grid,
                                          orrery_dim3 Block);

/// Counts with every field at its "not derived" value (kernel_counts.def):
/// where a library model starts.
orrery_kernel_counts emptyCounts();

/// The demangled name of the host stub at \p Func, from the loaded object's
/// symbol table (hidden symbols included); empty when it cannot be read.
std::string stubSymbol(const void *Func);
/// The same name as the object file holds it (mangled).
std::string stubMangledSymbol(const void *Func);

} // namespace orrery::sim

#endif
