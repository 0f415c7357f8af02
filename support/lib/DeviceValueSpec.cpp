//===- DeviceValueSpec.cpp - FILE:LINE[@ARG]=VALUE ------------------------===//

#include "orrery/support/DeviceValueSpec.h"
#include "orrery/support/ValueSchedule.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace orrery::support {

bool parseDeviceValueSite(const std::string &Given, DeviceValueSpec &Out,
                          std::string &Why) {
  std::string Where = Given;
  // FILE:LINE@ARG: what the kernel launched at the line leaves where its
  // pointer argument ARG (a name or an index) points.
  std::size_t LastColon = Where.rfind(':');
  std::size_t At = LastColon == std::string::npos
                       ? std::string::npos
                       : Where.find('@', LastColon + 1);
  Out.Arg.clear();
  if (At != std::string::npos) {
    Out.Arg = Where.substr(At + 1);
    Where.resize(At);
    bool Name =
        !Out.Arg.empty() &&
        std::all_of(Out.Arg.begin(), Out.Arg.end(), [](char C) {
          return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
        });
    if (!Name) {
      Why = "'" + Given +
            "': after '@' comes the kernel's pointer parameter the host "
            "reads (its name or its index from 0), e.g. solver.cu:42@flag";
      return false;
    }
  }
  std::size_t Colon = Where.rfind(':');
  if (Colon == std::string::npos || Colon == 0 || Colon + 1 == Where.size()) {
    Why = "'" + Given +
          "' is not FILE:LINE (e.g. jacobi.cpp:282, the line of the "
          "cudaMemcpy)";
    return false;
  }
  std::string Line = Where.substr(Colon + 1);
  char *End = nullptr;
  errno = 0;
  unsigned long N = std::strtoul(Line.c_str(), &End, 10);
  if (*End || errno || N == 0 || N > 100000000UL ||
      Line.find_first_not_of("0123456789") != std::string::npos) {
    Why = "line '" + Line + "' in '" + Given + "' is not a line number >= 1";
    return false;
  }
  Out.File = Where.substr(0, Colon);
  Out.Line = static_cast<unsigned>(N);
  return true;
}

bool parseDeviceValueText(const std::string &Value, const std::string &Where,
                          DeviceValueSpec &Out, std::string &Why) {
  ValueSchedule S;
  std::string Error;
  if (!parseValueSchedule(Value, S, Error)) {
    Why = "value for " + Where + ": " + Error +
          " (numbers are decimal, floating point, or 0x hex for integers "
          "and byte patterns)";
    return false;
  }
  Out.Value = Value;
  return true;
}

bool parseDeviceValueSpec(const std::string &Spec, DeviceValueSpec &Out,
                          std::string &Why) {
  std::size_t Eq = Spec.rfind('=');
  if (Eq == std::string::npos) {
    Why = "'" + Spec + "' is not FILE:LINE=VALUE (e.g. jacobi.cpp:282=1.0)";
    return false;
  }
  std::string Where = Spec.substr(0, Eq);
  return parseDeviceValueSite(Where, Out, Why) &&
         parseDeviceValueText(Spec.substr(Eq + 1), Where, Out, Why);
}

} // namespace orrery::support
