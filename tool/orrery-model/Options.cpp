//===- Options.cpp - orrery-model's command-line options ------------------===//

#include "Options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace orrery::tool {

bool Options::parse(const std::vector<std::string> &Args,
                    const std::set<std::string> &Valued,
                    const std::set<std::string> &Flags, std::string &Error) {
  for (std::size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    if (A.size() < 3 || A.compare(0, 2, "--") != 0) {
      Positional.push_back(A);
      continue;
    }
    std::string Key = A.substr(2), Value;
    bool HasValue = false;
    if (auto Eq = Key.find('='); Eq != std::string::npos) {
      Value = Key.substr(Eq + 1);
      Key = Key.substr(0, Eq);
      HasValue = true;
    }
    if (Flags.count(Key)) {
      if (HasValue) {
        Error = "option --" + Key + " takes no value";
        return false;
      }
      Values[Key] = "1";
      continue;
    }
    if (!Valued.count(Key)) {
      Error = "unknown option --" + Key;
      return false;
    }
    if (!HasValue) {
      if (I + 1 >= Args.size()) {
        Error = "option --" + Key + " needs a value";
        return false;
      }
      Value = Args[++I];
    }
    Values[Key] = Value;
  }
  return true;
}

std::string Options::get(const std::string &Key,
                         const std::string &Default) const {
  auto It = Values.find(Key);
  return It == Values.end() ? Default : It->second;
}

double Options::number(const std::string &Key, double Default,
                       std::string &Error) const {
  auto It = Values.find(Key);
  if (It == Values.end())
    return Default;
  const char *S = It->second.c_str();
  char *End = nullptr;
  errno = 0;
  double V = std::strtod(S, &End);
  if (End == S || *End != '\0' || errno != 0 || !std::isfinite(V)) {
    Error = "option --" + Key + " needs a number, not '" + It->second + "'";
    return Default;
  }
  return V;
}

} // namespace orrery::tool
