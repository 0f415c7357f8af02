//===- OutputFiles.h - Checking and committing every output -----*- C++ -*-===//
//
// docs/instrument.md promises that a failed run writes nothing and never
// replaces a file it read. So the outputs of a run (instrumented files and
// the manifest) are checked together against every file the translation
// units read, written to temporary files next to their destinations, and
// renamed into place only when all of them were written.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_TOOL_INSTRUMENT_OUTPUTFILES_H
#define ORRERY_TOOL_INSTRUMENT_OUTPUTFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <set>
#include <string>

namespace orrery {

struct PlannedOutput {
  std::string Option; ///< the option that chose the path: -o, --manifest, ...
  std::string Path;   ///< as given or derived; never "-"
  const std::string *Text = nullptr;
  /// With --in-place: the file this output rewrites (it may replace it).
  std::string Replaces;
};

/// Refuses an output that is an input or another file the translation units
/// read (compared by device and inode, so another spelling, a symbolic or a
/// hard link is caught), that another output names too, or that exists and
/// is not a regular file. The error names the option and the file.
llvm::Error checkOutputs(llvm::ArrayRef<PlannedOutput> Outs,
                         const std::set<std::string> &Inputs,
                         const std::set<std::string> &FilesRead);

/// Writes every output to a temporary file in its destination directory,
/// checks the outputs again (a path such as new/../input.cu names an input
/// only once new/ exists), then renames them all into place. On failure,
/// the temporaries and the directories created for them are removed and no
/// destination changed.
llvm::Error commitOutputs(llvm::ArrayRef<PlannedOutput> Outs,
                          const std::set<std::string> &Inputs,
                          const std::set<std::string> &FilesRead);

} // namespace orrery

#endif
