//===- KernelCollector.h - Find __global__ kernels and analyse them -*- C++
//-*-===//
#ifndef ORRERY_PASSES_KERNELCOLLECTOR_H
#define ORRERY_PASSES_KERNELCOLLECTOR_H

#include "KernelAnalysis.h"
#include "SiteCollector.h"
#include "orrery/passes/KernelHintCode.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"

#include <vector>

namespace orrery {

/// Registers `#pragma orrery loop_count(...)` and `branch_prob(...)` with PP;
/// the pragmas seen are added to Table.
void addOrreryPragmaHandlers(clang::Preprocessor &PP, PragmaTable &Table);

/// Every kernel defined in a rewritable file, analysed: the pattern (for the
/// generated function) and each concrete kernel or launched instantiation
/// (for the report). Hinted receives the kernels that get a hint function.
std::vector<KernelInfo>
collectKernels(clang::ASTContext &Ctx,
               const std::vector<std::string> &HeaderDirs,
               const PragmaTable &Pragmas, const KernelOverrides &Overrides,
               HintedKernels &Hinted);

} // namespace orrery

#endif
