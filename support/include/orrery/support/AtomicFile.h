//===- AtomicFile.h - Replace a file whole or not at all --------*- C++ -*-===//
//
// Every file Orrery writes for a user (reports, traces, profiles, machine
// files, sweep state, compiler outputs) goes through a temporary file in the
// target's directory that is renamed over the target once complete: a reader
// sees the old file or the new one, never a partial one, and a failed write
// leaves the old file as it was and no temporary behind.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_SUPPORT_ATOMICFILE_H
#define ORRERY_SUPPORT_ATOMICFILE_H

#include <string>
#include <string_view>
#include <vector>

namespace orrery::support {

/// Whether \p Path may be written as an output of a command that reads
/// \p Inputs: it is absent, or a regular file (or a link to one) that is
/// none of the inputs. Refuses a directory, a device, a FIFO or a socket, and
/// a path that is one of the inputs (the same file, by device and inode),
/// with \p Error naming \p Option (the option that named the path), the path
/// and what to do.
bool checkOutputPath(const std::string &Option, const std::string &Path,
                     const std::vector<std::string> &Inputs,
                     std::string &Error);

/// Writes \p Text to \p Path whole or not at all. A link is written
/// through (its target replaced); anything but a regular file is refused. On failure returns false
/// with \p Error naming the path and the system's reason; \p Path is
/// unchanged.
bool writeFileAtomically(const std::string &Path, std::string_view Text,
                         std::string &Error);

/// Creates a new file beside \p Target holding \p Text (with \p Target's
/// permissions if it exists) and returns its path, for callers that replace
/// several files together. On failure returns "" with \p Error set and
/// leaves no file.
std::string writeTemporaryBeside(const std::string &Target,
                                 std::string_view Text, std::string &Error);

/// Renames the complete file \p Temp over \p Target (same directory). On
/// failure removes \p Temp and returns false with \p Error naming
/// \p Target.
bool replaceFile(const std::string &Temp, const std::string &Target,
                 std::string &Error);

} // namespace orrery::support

#endif // ORRERY_SUPPORT_ATOMICFILE_H
