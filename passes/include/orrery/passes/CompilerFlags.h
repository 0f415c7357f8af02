//===- CompilerFlags.h - Compile commands as clang must see them -*- C++
//-*-===//
//
// Compile databases written by CMake for nvcc targets carry nvcc flags; clang
// reports them as unknown and still exits 0, parsing the file in another
// configuration. Orrery translates nvcc flags to clang's, and refuses any flag
// it cannot translate or clang does not know.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_COMPILERFLAGS_H
#define ORRERY_PASSES_COMPILERFLAGS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace orrery {

/// True if the command line was written for nvcc (by its argv[0]).
bool isNvccCommand(const std::vector<std::string> &Argv);

/// Translates an nvcc command line (argv[0] included) into clang's. Flags
/// that only steer nvcc's device compilation or its host compiler choice are
/// dropped; anything else nvcc-specific is an error naming the flag.
llvm::Expected<std::vector<std::string>>
translateNvccCommand(const std::vector<std::string> &Argv);

/// Checks that clang's driver knows every flag (argv[0] excluded). Returns an
/// error naming the first unknown flag.
llvm::Error checkClangKnowsFlags(const std::vector<std::string> &Argv);

/// Settings Orrery adds to every command.
struct ParseSettings {
  std::string ResourceDir; ///< clang resource dir (has include/cuda_wrappers)
  std::string CudaPath;    ///< CUDA toolkit root, or empty
};

/// Adds what host-side CUDA parsing needs when the file is CUDA:
/// --cuda-host-only, -Wno-unknown-cuda-version, --cuda-path; and the resource
/// dir for every file. Flags the user already gave win.
std::vector<std::string> addParseFlags(std::vector<std::string> Argv,
                                       llvm::StringRef File,
                                       const ParseSettings &S);

/// Finds the clang resource directory: the override if given, otherwise the
/// one baked in at build time. Fails if it has no include/cuda_wrappers.
llvm::Expected<std::string> findResourceDir(llvm::StringRef Override);

} // namespace orrery

#endif
