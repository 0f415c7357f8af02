//===- AssumedFlags.h - Flags for orrery-instrument FILE.cu alone -*- C++
//-*-===//
//
// Clang's tools parse a file they have no compile command for "without
// flags"; a CUDA+MPI source needs a few to parse at all. With neither -p nor
// `--`, orrery-instrument looks for a compile_commands.json from the first
// source's directory upward (as clang's tools do) and otherwise assumes the
// flags a build of such a file needs: the MPI and RAMC include directories
// (the CUDA ones come from the parse settings, as for every CUDA file).
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_TOOL_INSTRUMENT_ASSUMEDFLAGS_H
#define ORRERY_TOOL_INSTRUMENT_ASSUMEDFLAGS_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace orrery {

struct BareInvocation {
  /// The command line to parse: the user's, with `-p DIR` or `-- FLAGS`
  /// appended.
  std::vector<std::string> Args;
  /// What was assumed, for a note on stderr; empty when nothing was.
  std::string Note;
  /// The directory of the compile_commands.json used (as -p), or empty.
  std::string DatabaseDir;
};

/// The compile_commands.json in \p Dir or the nearest parent directory (as
/// clang's tools look for one), or "".
std::string compileDatabaseAbove(llvm::StringRef Dir);

/// The command line for an invocation with neither -p nor `--`.
BareInvocation bareInvocation(int Argc, const char **Argv);

} // namespace orrery

#endif
