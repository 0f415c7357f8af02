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

int readProbeSamples(const std::string &Command, NamedSamples &Out) {
  FILE *P = popen(Command.c_str(), "r");
  if (!P)
    return -1;
  char Line[512];
  while (std::fgets(Line, sizeof Line, P)) {
    std::istringstream IS(Line);
    std::string Tag;
    Sample S;
    if (Line[0] != '#' && IS >> Tag >> S.Bytes >> S.Seconds)
      Out[Tag].push_back(S);
  }
  return pclose(P);
}

std::string exitDescription(int Status) {
  if (WIFEXITED(Status))
    return "exited with status " + std::to_string(WEXITSTATUS(Status));
  if (WIFSIGNALED(Status))
    return "was killed by signal " + std::to_string(WTERMSIG(Status));
  return "failed";
}

bool runProbe(const std::string &Name, const std::string &Command,
              std::vector<Sample> &Out, std::string &Error) {
  NamedSamples All;
  int Status = readProbeSamples(Command, All);
  if (Status < 0) {
    Error = "probe " + Name + ": cannot start '" + Command + "'";
    return false;
  }
  if (Status != 0) {
    Error = "probe " + Name + ": '" + Command + "' " + exitDescription(Status) +
            " (its messages are above; check the launcher after '--')";
    return false;
  }
  const std::vector<Sample> &Mine = All[Name];
  Out.insert(Out.end(), Mine.begin(), Mine.end());
  if (Out.empty()) {
    Error = "probe " + Name + ": '" + Command + "' printed no '" + Name +
            " BYTES SECONDS' lines";
    return false;
  }
  return true;
}

} // namespace orrery::calibrate
