//===- KernelHintCode.h - Kernel hints as generated code and comments -*- C++
//-*-===//
//
// The kernels found in a rewritten file and what the instrumenter writes for
// each: the comment summarizing its hint and the function returning its
// orrery_kernel_counts. (One kernel's hint itself is in KernelHint.h; the
// --report output in KernelReport.h.)
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_KERNELHINTCODE_H
#define ORRERY_PASSES_KERNELHINTCODE_H

#include "orrery/passes/KernelHint.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace orrery {
/// A kernel found in a rewritten file.
struct KernelInfo {
  KernelHint Pattern; ///< as written (templates keep T)
  std::vector<KernelHint>
      Instances;              ///< concrete: the kernel, or each instantiation
  std::string File;           ///< absolute path
  unsigned DeclLineStart = 0; ///< offset of the start of the declaration's line
  unsigned DeclLine = 0;      ///< its line number
  unsigned AfterBody = 0;     ///< offset of the line after the closing brace
  unsigned AfterLine = 0;     ///< that line's number
  std::vector<std::string> ParamTexts; ///< parameter declarations as written
  std::string TemplateHead;            ///< "template <typename T>" or empty
};

/// The counts of orrery_kernel_counts as expressions of the launch.
using CountExprs = models::KernelCountsOf<SymExpr>;
CountExprs countExprs(const KernelHint &H);

/// A readable comment block summarizing a hint.
std::string hintComment(const KernelHint &H);

/// The generated function returning orrery_kernel_counts for a launch.
std::string hintFunction(const KernelInfo &K);

/// The generated code of one translation unit's kernel registry: for each
/// concrete kernel (each instantiation) of Kernels, a function evaluating its
/// hint from a launch's argument array, the table of orrery_kernel_entry and
/// a static constructor registering it (hooks.h, orrery_register_kernels).
/// Empty when there is no kernel.
std::string kernelRegistry(const std::vector<KernelInfo> &Kernels);

/// A count expression as generated C++ (symbols read as doubles).
std::string countCode(const SymExpr &E);

/// Whether \p S is a symbol generated count code defines itself (launch
/// geometry, thread ids, dynSmem, a named unknown) rather than a kernel
/// parameter.
bool isLaunchSymbol(llvm::StringRef S);

/// `p` of a hint symbol `bytes(p)` (the bytes of the buffer parameter p
/// points into, asked of the runtime at the launch); empty for any other.
llvm::StringRef bufferOfSymbol(llvm::StringRef S);

/// The statements filling `orrery_kernel_counts orrery_c_` from \p C, with
/// the symbols of \p Zero replaced, and its confidence.
std::string countStatements(const CountExprs &C, models::Confidence Conf,
                            const std::map<std::string, SymExpr> &Zero = {});

/// A count for people: whole numbers without decimals, others in %G.
std::string formatCount(double V);

/// The name of K's generated hint function.
std::string hintFunctionName(llvm::StringRef Kernel);

} // namespace orrery

#endif
