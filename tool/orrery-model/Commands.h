//===- Commands.h - orrery-model subcommands --------------------*- C++ -*-===//

#ifndef ORRERY_TOOL_MODEL_COMMANDS_H
#define ORRERY_TOOL_MODEL_COMMANDS_H

#include <string>
#include <vector>

namespace orrery::tool {

/// Each returns the process exit status (0 ok, 1 model errors, 2 usage).
int runCheck(const std::vector<std::string> &Args);
int runShow(const std::vector<std::string> &Args);
int runTransport(const std::vector<std::string> &Args);
int runP2p(const std::vector<std::string> &Args);
int runCollective(const std::vector<std::string> &Args);
int runKernel(const std::vector<std::string> &Args);

} // namespace orrery::tool

#endif // ORRERY_TOOL_MODEL_COMMANDS_H
