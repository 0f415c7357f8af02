//===- KernelOverrides.cpp - Side file of per-kernel overrides ------------===//

#include "orrery/passes/KernelOverrides.h"

#include <yaml-cpp/yaml.h>

namespace orrery {

namespace {
std::string at(const std::string &Path, const YAML::Node &N,
               const std::string &Msg) {
  YAML::Mark M = N.Mark();
  return Path + ":" + std::to_string(M.line + 1) + ":" +
         std::to_string(M.column + 1) + ": " + Msg;
}
} // namespace

bool loadKernelOverrides(const std::string &Path, KernelOverrides &Out,
                         std::string &Error) {
  YAML::Node Root;
  try {
    Root = YAML::LoadFile(Path);
  } catch (const YAML::BadFile &) {
    Error = Path + ": cannot read the kernel overrides file";
    return false;
  } catch (const YAML::Exception &E) {
    Error = Path + ":" + std::to_string(E.mark.line + 1) + ":" +
            std::to_string(E.mark.column + 1) + ": " + E.msg;
    return false;
  }
  if (!Root.IsMap() || !Root["kernels"] || !Root["kernels"].IsMap()) {
    Error = at(Path, Root, "expected a map with a 'kernels' map");
    return false;
  }
  for (const auto &K : Root) {
    if (K.first.as<std::string>() != "kernels") {
      Error = at(Path, K.first,
                 "unknown key '" + K.first.as<std::string>() +
                     "'; the file holds one map, 'kernels'");
      return false;
    }
  }
  try {
    for (const auto &K : Root["kernels"]) {
      std::string Name = K.first.as<std::string>();
      if (!K.second.IsMap()) {
        Error = at(Path, K.second, "kernel '" + Name + "': expected a map");
        return false;
      }
      KernelOverride O;
      for (const auto &F : K.second) {
        std::string Key = F.first.as<std::string>();
        if (Key == "duration_us") {
          double V = F.second.as<double>();
          if (!(V > 0)) {
            Error = at(Path, F.second, "duration_us must be positive");
            return false;
          }
          O.DurationMicros = V;
        } else if (Key == "symbols") {
          if (!F.second.IsMap()) {
            Error = at(Path, F.second,
                       "symbols: expected a map of names to numbers");
            return false;
          }
          for (const auto &S : F.second)
            O.Symbols[S.first.as<std::string>()] = S.second.as<double>();
        } else if (Key == "loops" || Key == "branches") {
          if (!F.second.IsMap()) {
            Error = at(Path, F.second,
                       Key + ": expected a map of \"file:line\" to values");
            return false;
          }
          for (const auto &L : F.second) {
            std::string Where = L.first.as<std::string>();
            if (Where.find(':') == std::string::npos) {
              Error = at(Path, L.first,
                         "'" + Where + "' is not file:line (e.g. spmv.cu:93)");
              return false;
            }
            if (Key == "branches") {
              double P = L.second.as<double>();
              if (P < 0 || P > 1) {
                Error = at(Path, L.second,
                           "branch probability must be between 0 and 1");
                return false;
              }
              O.Branches[Where] = P;
              continue;
            }
            std::optional<SymExpr> T = parseSymExpr(L.second.as<std::string>());
            if (!T) {
              Error = at(Path, L.second,
                         "trip count '" + L.second.as<std::string>() +
                             "' is not an expression of numbers, parameters "
                             "and + - * / ( )");
              return false;
            }
            O.Loops[Where] = *T;
          }
        } else {
          Error = at(Path, F.first,
                     "unknown key '" + Key +
                         "'; use loops, branches, symbols or duration_us");
          return false;
        }
      }
      Out[Name] = std::move(O);
    }
  } catch (const YAML::Exception &E) {
    Error = Path + ":" + std::to_string(E.mark.line + 1) + ":" +
            std::to_string(E.mark.column + 1) + ": " + E.msg;
    return false;
  }
  return true;
}

} // namespace orrery
