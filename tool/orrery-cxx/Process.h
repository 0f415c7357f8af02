//===- Process.h - orrery-cxx: running commands, temporary files -*- C++
//-*-===//
//
// Plain POSIX (posix_spawn, mkdtemp, nftw): the driver runs for every file of
// a build, so it stays small and starts fast, without LLVM's libraries.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_TOOL_CXX_PROCESS_H
#define ORRERY_TOOL_CXX_PROCESS_H

#include "orrery/support/ReadFile.h"

#include <string>
#include <vector>

namespace orrery {
namespace cxx {

/// Runs Argv[0] (a path) with Argv and waits. Standard error goes to
/// StderrFile when it is given. Returns the exit status, 128 + the signal
/// number when the program was killed, or -1 (Error set) if it did not start.
int runCommand(const std::vector<std::string> &Argv,
               const std::string &StderrFile, std::string &Error);

/// The command as a shell would read it (for -v and -###).
std::string shellQuote(const std::vector<std::string> &Argv);

/// Creates a private directory below $TMPDIR (or /tmp).
bool makeTempDir(const char *Prefix, std::string &Dir, std::string &Error);
/// Removes Dir and everything below it.
void removeTree(const std::string &Dir);

using support::readFile;
bool writeFile(const std::string &Path, const std::string &Data);
/// Replaces every occurrence of From by To in the file at Path.
bool replaceInFile(const std::string &Path, const std::string &From,
                   const std::string &To);

} // namespace cxx
} // namespace orrery

#endif
