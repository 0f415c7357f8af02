//===- Process.h - Running smpirun ------------------------------*- C++ -*-===//

#ifndef ORRERY_TOOL_RUN_PROCESS_H
#define ORRERY_TOOL_RUN_PROCESS_H

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace orrery::run {

struct Command {
  std::vector<std::string> Argv;
  /// Variables set for the child (and printed); an empty value unsets one.
  std::vector<std::pair<std::string, std::string>> Env;
};

/// \p S quoted for a POSIX shell where needed.
std::string shellQuote(const std::string &S);

/// Prints the environment (one NAME=value line each; unset ones as
/// "unset NAME") and the command line, so they can be pasted into a shell.
void printCommand(const Command &C, std::ostream &OS);

/// Runs \p C, its standard streams inherited, and waits. SIGINT, SIGTERM,
/// SIGHUP and SIGQUIT received meanwhile are passed on to it (those ignored
/// on entry stay ignored, in it too). Returns its exit status: 128 + N when
/// signal N was passed on and it stopped, else 128 + N if signal N ended
/// it; or -1 with \p Error when it could not be started.
int runCommand(const Command &C, std::string &Error);

} // namespace orrery::run

#endif // ORRERY_TOOL_RUN_PROCESS_H
