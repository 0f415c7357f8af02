//===- KernelHints.h - Kernel cost hints: emission and report ---*- C++ -*-===//
#ifndef ORRERY_PASSES_KERNELHINTS_H
#define ORRERY_PASSES_KERNELHINTS_H

#include "orrery/passes/KernelHint.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace orrery {
namespace models {
struct Machine;
}

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

/// The counts of orrery_kernel_counts as expressions, in field order.
std::vector<std::pair<std::string, SymExpr>> countFields(const KernelHint &H);

/// A readable comment block summarizing a hint.
std::string hintComment(const KernelHint &H);

/// The generated function returning orrery_kernel_counts for a launch.
std::string hintFunction(const KernelInfo &K);

/// A count for people: whole numbers without decimals, others in %G.
std::string formatCount(double V);

/// The name of K's generated hint function.
std::string hintFunctionName(llvm::StringRef Kernel);

/// A launch to evaluate: `KERNEL grid=X[,Y,Z] block=X[,Y,Z] [shmem=B]
/// NAME=VALUE...`.
struct LaunchSpec {
  std::string Kernel;
  std::map<std::string, double> Bindings;
};
/// Parses a --launch argument; returns an error message on bad input.
std::string parseLaunchSpec(llvm::StringRef Text, LaunchSpec &Out);

/// The --report output, text or JSON. With a machine (a parsed machine
/// file), each launch also gets its roofline bound and predicted duration.
std::string reportText(const std::vector<KernelInfo> &Kernels,
                       const std::vector<LaunchSpec> &Launches,
                       const models::Machine *M = nullptr);
std::string reportJson(const std::vector<KernelInfo> &Kernels,
                       const std::vector<LaunchSpec> &Launches,
                       const models::Machine *M = nullptr);

} // namespace orrery

#endif
