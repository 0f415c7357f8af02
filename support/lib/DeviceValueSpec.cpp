//===- DeviceValueSpec.cpp - FILE:LINE[@ARG]=VALUE ------------------------===//

#include "orrery/support/DeviceValueSpec.h"
#include "orrery/support/ValueSchedule.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace orrery::support {

bool isParameterName(const std::string &Arg) {
  return !Arg.empty() && std::all_of(Arg.begin(), Arg.end(), [](char C) {
    return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
  });
}

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
    if (!isParameterName(Out.Arg)) {
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

std::string deviceValuesJson(const std::vector<DeviceValueSpec> &Values) {
  nlohmann::json J = nlohmann::json::array();
  for (const DeviceValueSpec &D : Values) {
    J.push_back({{"file", D.File},
                 {"line", D.Line},
                 {"value", D.Value},
                 {"origin", D.Origin}});
    if (!D.Arg.empty())
      J.back()["arg"] = D.Arg;
  }
  return J.dump(1) + "\n";
}

bool parseDeviceValuesJson(const std::string &Text,
                           std::vector<DeviceValueSpec> &Out,
                           std::string &Why) {
  nlohmann::json J = nlohmann::json::parse(Text, nullptr, false);
  if (J.is_discarded() || !J.is_array()) {
    Why = "not a JSON list of device values";
    return false;
  }
  for (const auto &E : J) {
    if (!E.is_object() || !E.contains("file") || !E.contains("line") ||
        !E.contains("value") || !E["file"].is_string() ||
        !E["line"].is_number_unsigned() || !E["value"].is_string() ||
        (E.contains("arg") && !E["arg"].is_string())) {
      Why = "an entry lacks file, line or value";
      return false;
    }
    DeviceValueSpec D;
    D.File = E["file"].get<std::string>();
    D.Line = E["line"].get<unsigned>();
    D.Value = E["value"].get<std::string>();
    D.Origin = E.value("origin", std::string("--device-value"));
    D.Arg = E.value("arg", std::string());
    Out.push_back(std::move(D));
  }
  return true;
}

} // namespace orrery::support
