//===- PtxasIndex.h - ptxas outputs by input and its files ------*- C++ -*-===//
//
// The PTX-keyed cache needs the device compile (a full -O3 compile) before it
// can be read. The index finds a ptxas output without compiling: its key is
// the device command, its directory, the architecture and the ptxas binary;
// its entry lists every file the device compile read (clang's -MD output)
// with a hash of its content, and is used only while all of them are
// unchanged. Instrumenting reads the index and nothing else.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_PTXASINDEX_H
#define ORRERY_PASSES_PTXASINDEX_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace orrery {

/// The index file of a device command (\p Cmd without its output path) run
/// in \p Directory for \p Arch with \p PtxasId (path, size, time of ptxas).
std::string ptxasIndexPath(llvm::StringRef CacheDir,
                           const std::vector<std::string> &Cmd,
                           llvm::StringRef Directory, llvm::StringRef Arch,
                           llvm::StringRef PtxasId);

/// The ptxas output of an index entry whose files are all unchanged.
std::optional<std::string> readPtxasIndex(llvm::StringRef Path);

/// Writes an entry: the files of \p DepFile (make syntax, paths relative to
/// \p Directory) with their hashes, then \p Verbose.
void writePtxasIndex(llvm::StringRef Path, llvm::StringRef DepFile,
                     llvm::StringRef Directory, llvm::StringRef Verbose);

/// Writes a cache file whole or not at all (a concurrent reader sees the old
/// file or the new one), creating its directory; failures are ignored.
void writeCacheFile(llvm::StringRef Path, llvm::StringRef Text);

} // namespace orrery

#endif
