//===- KernelAnalysis.h - Static cost analysis of __global__ kernels -*- C++
//-*-===//
//
// Derives a KernelHint from a kernel's AST, following docs/kernel-cost.md:
// operation counts by precision (with a*b+c contracted to fma), global and
// shared accesses classified by the threadIdx.x coefficient of their index,
// active threads from thread-id guards, loop trip counts (constant, symbolic,
// grid-stride; data-dependent ones defaulted with a diagnostic), atomics,
// barriers, and __device__ callees inlined.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_KERNELANALYSIS_H
#define ORRERY_PASSES_KERNELANALYSIS_H

#include "orrery/passes/KernelHint.h"
#include "orrery/passes/KernelOverrides.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <string>
#include <vector>

namespace orrery {

/// `#pragma orrery loop_count(expr)` and `#pragma orrery branch_prob(p)`,
/// keyed by the line they are written on.
struct OrreryPragma {
  std::string Kind; ///< loop_count | branch_prob
  std::string Text; ///< the expression as written
  std::string Location;
};
using PragmaTable = std::map<std::pair<unsigned, unsigned>, OrreryPragma>;
///< key: (FileID hash, line)

/// Trip count assumed for loops whose bound reads memory.
constexpr double DefaultDataDependentTrip = 16;
/// Probability assumed for branches that do not test thread ids.
constexpr double DefaultBranchProbability = 0.5;

/// Override, if not null, comes from the side file and wins over pragmas.
KernelHint analyzeKernel(clang::ASTContext &Ctx, const clang::FunctionDecl *K,
                         const PragmaTable &Pragmas,
                         const KernelOverride *Override = nullptr);

} // namespace orrery

#endif
