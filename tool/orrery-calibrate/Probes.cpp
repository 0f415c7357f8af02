//===- Probes.cpp - Running probe programs and reading their samples ------===//

#include "Probes.h"

#include <cstdio>
#include <sstream>
#include <sys/wait.h>

namespace orrery::calibrate {

std::vector<std::string> knownProbes() { return {"pingpong", "memcpy"}; }

std::string shellQuote(const std::string &Word) {
  std::string Q = "'";
  for (char C : Word) {
    if (C == '\'')
      Q += "'\\''";
    else
      Q += C;
  }
  return Q + "'";
}

bool runProbe(const std::string &Name, const std::string &Command,
              std::vector<Sample> &Out, std::string &Error) {
  FILE *P = popen(Command.c_str(), "r");
  if (!P) {
    Error = "probe " + Name + ": cannot start '" + Command + "'";
    return false;
  }
  char Line[512];
  while (std::fgets(Line, sizeof Line, P)) {
    std::istringstream IS(Line);
    std::string Tag;
    Sample S;
    if (IS >> Tag >> S.Bytes >> S.Seconds && Tag == Name)
      Out.push_back(S);
  }
  int Status = pclose(P);
  if (Status != 0) {
    std::string How =
        WIFEXITED(Status)
            ? "exited with status " + std::to_string(WEXITSTATUS(Status))
        : WIFSIGNALED(Status)
            ? "was killed by signal " + std::to_string(WTERMSIG(Status))
            : "failed";
    Error = "probe " + Name + ": '" + Command + "' " + How +
            " (its messages are above; check the launcher after '--')";
    return false;
  }
  if (Out.empty()) {
    Error = "probe " + Name + ": '" + Command + "' printed no '" + Name +
            " BYTES SECONDS' lines";
    return false;
  }
  return true;
}

} // namespace orrery::calibrate
