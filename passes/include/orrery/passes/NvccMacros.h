//===- NvccMacros.h - Code written for nvcc's macros ------------*- C++ -*-===//
//
// nvcc defines __NVCC__ and __CUDACC_VER_MAJOR__/MINOR__/BUILD__; code
// written for it tests them (`#ifdef __NVCC__` around an error-check macro).
// clang defines none of them, and defining __NVCC__ for a clang compile
// sends the CUDA headers (CCCL) down nvcc-only paths that do not compile.
// So the user's own files (the sources and project headers orrery-cxx
// instruments) have those names renamed to ones no header tests
// (__ORRERY_NVCC__, ...), which orrery-cxx defines
// with nvcc's values: the user's code takes its nvcc branches, the CUDA
// headers their clang ones.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_NVCCMACROS_H
#define ORRERY_PASSES_NVCCMACROS_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

namespace orrery {

/// nvcc's macro names and the names they are renamed to.
const std::vector<std::pair<std::string, std::string>> &nvccMacroRenames();

/// \p Source with nvcc's macro names renamed wherever they are identifiers
/// of the code or of its directives (not in comments, string or character
/// literals); \p Count is the number of names renamed. Line numbers are
/// unchanged.
std::string renameNvccMacros(llvm::StringRef Source, unsigned &Count);

} // namespace orrery

#endif
