//===- KernelOverrides.h - Side file of per-kernel overrides ----*- C++ -*-===//
//
// What static analysis cannot know, supplied by the user in a YAML side file
// (--kernel-overrides FILE.yaml, docs/kernel-cost.md):
//
//   kernels:
//     spmv_csr:
//       loops: {"spmv.cu:93": "nnz / rows"}   # trip per loop, by file:line
//       branches: {"spmv.cu:97": 0.1}          # branch probability
//       duration_us: 12.5                       # measured; wins over the model
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_KERNELOVERRIDES_H
#define ORRERY_PASSES_KERNELOVERRIDES_H

#include "orrery/passes/SymExpr.h"

#include <map>
#include <optional>
#include <string>

namespace orrery {

struct KernelOverride {
  std::map<std::string, SymExpr> Loops;   ///< "file:line" -> trip
  std::map<std::string, double> Branches; ///< "file:line" -> probability
  std::optional<double> DurationMicros;
  /// Values of the analysis's named unknowns (`row_ptr.avg_nnz`).
  std::map<std::string, double> Symbols;
};

/// Kernel name (as written, or name<args> for one instantiation) -> override.
using KernelOverrides = std::map<std::string, KernelOverride>;

/// Reads a side file; on error returns false and sets Error to
/// "file:line:col: message".
bool loadKernelOverrides(const std::string &Path, KernelOverrides &Out,
                         std::string &Error);

} // namespace orrery

#endif
