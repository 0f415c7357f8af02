//===- DeviceValueOptions.cpp - --device-value and --device-values --------===//

#include "DeviceValueOptions.h"
#include "orrery/support/RecordedReads.h"
#include "orrery/support/ValueSchedule.h"

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>

namespace orrery::run {

namespace {

bool location(std::string Where, const std::string &Origin, DeviceValue &Out,
              std::string &Error) {
  // FILE:LINE@ARG: what the kernel launched at the line leaves where its
  // pointer argument ARG (a name or an index) points.
  std::size_t At = Where.find('@', Where.rfind(':') + 1);
  if (At != std::string::npos && Where.rfind(':') != std::string::npos) {
    Out.Arg = Where.substr(At + 1);
    Where.resize(At);
    bool Name =
        !Out.Arg.empty() &&
        std::all_of(Out.Arg.begin(), Out.Arg.end(), [](char C) {
          return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
        });
    if (!Name) {
      Error = Origin + ": '" + Where + "@" + Out.Arg +
              "': after '@' comes the kernel's pointer parameter the host "
              "reads (its name or its index from 0), e.g. solver.cu:42@flag";
      return false;
    }
  }
  std::size_t Colon = Where.rfind(':');
  if (Colon == std::string::npos || Colon == 0 || Colon + 1 == Where.size()) {
    Error = Origin + ": '" + Where +
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
    Error = Origin + ": line '" + Line + "' in '" + Where +
            "' is not a line number >= 1";
    return false;
  }
  Out.File = Where.substr(0, Colon);
  Out.Line = static_cast<unsigned>(N);
  Out.Origin = Origin;
  return true;
}

bool value(const std::string &V, const std::string &Where,
           const std::string &Origin, DeviceValue &Out, std::string &Error) {
  support::ValueSchedule S;
  std::string Why;
  if (!support::parseValueSchedule(V, S, Why)) {
    Error = Origin + ": value for " + Where + ": " + Why +
            " (numbers are decimal, floating point, or 0x hex for integers "
            "and byte patterns)";
    return false;
  }
  Out.Value = V;
  return true;
}

} // namespace

bool parseDeviceValue(const std::string &Spec, const std::string &Origin,
                      DeviceValue &Out, std::string &Error) {
  std::size_t Eq = Spec.rfind('=');
  if (Eq == std::string::npos) {
    Error = Origin + " needs FILE:LINE=VALUE (e.g. jacobi.cpp:282=1.0), not '" +
            Spec + "'";
    return false;
  }
  std::string Where = Spec.substr(0, Eq);
  return location(Where, Origin, Out, Error) &&
         value(Spec.substr(Eq + 1), Where, Origin, Out, Error);
}

bool readDeviceValueFile(const std::string &Path, std::vector<DeviceValue> &Out,
                         std::string &Error) {
  YAML::Node Root;
  std::error_code EC;
  if (!std::filesystem::is_regular_file(Path, EC)) {
    Error = "--device-values: '" + Path + "' is " +
            (std::filesystem::exists(Path, EC) ? "not a regular file"
                                               : "not there") +
            "; give a YAML file of FILE:LINE: VALUE lines";
    return false;
  }
  try {
    Root = YAML::LoadFile(Path);
  } catch (const YAML::BadFile &) {
    Error = "--device-values: cannot read '" + Path + "'";
    return false;
  } catch (const YAML::Exception &E) {
    Error = Path + ":" + std::to_string(E.mark.line + 1) + ":" +
            std::to_string(E.mark.column + 1) + ": " + E.msg;
    return false;
  } catch (const std::exception &E) {
    Error = "--device-values: cannot read '" + Path + "' (" + E.what() + ")";
    return false;
  }
  if (!Root.IsMap()) {
    Error = Path + ": expected a map of FILE:LINE to VALUE, e.g. "
                   "'jacobi.cpp:282: 1.0'";
    return false;
  }
  for (const auto &KV : Root) {
    std::string Origin = Path + ":" + std::to_string(KV.first.Mark().line + 1);
    if (!KV.first.IsScalar() || !KV.second.IsScalar()) {
      Error = Origin + ": each entry is FILE:LINE: VALUE";
      return false;
    }
    DeviceValue D;
    std::string Where = KV.first.Scalar();
    if (!location(Where, Origin, D, Error) ||
        !value(KV.second.Scalar(), Where, Origin, D, Error))
      return false;
    Out.push_back(std::move(D));
  }
  return true;
}

std::string deviceValuesJson(const std::vector<DeviceValue> &Values) {
  nlohmann::json J = nlohmann::json::array();
  for (const DeviceValue &D : Values) {
    J.push_back({{"file", D.File},
                 {"line", D.Line},
                 {"value", D.Value},
                 {"origin", D.Origin}});
    if (!D.Arg.empty())
      J.back()["arg"] = D.Arg;
  }
  return J.dump(1) + "\n";
}

bool addReplayFile(const std::string &Path, std::vector<std::string> &Files,
                   std::string &Error) {
  support::RecordedReads New;
  std::string Why;
  if (!support::readRecordedReads(Path, New, Why)) {
    Error = "--replay-reads: " + Why;
    return false;
  }
  for (const std::string &Other : Files) {
    support::RecordedReads Old;
    if (!support::readRecordedReads(Other, Old, Why))
      continue; // checked when it was added
    if (Old.WorldSize != New.WorldSize) {
      Error = "--replay-reads: " + Path + " was recorded on " +
              std::to_string(New.WorldSize) + " rank(s), " + Other + " on " +
              std::to_string(Old.WorldSize) +
              ": give the files of one recorded run";
      return false;
    }
    if (Old.Rank == New.Rank) {
      Error = "--replay-reads: " + Path + " and " + Other + " both hold rank " +
              std::to_string(New.Rank) + ": give each rank's file once";
      return false;
    }
  }
  std::error_code EC;
  std::filesystem::path Abs = std::filesystem::absolute(Path, EC);
  Files.push_back(EC ? Path : Abs.string());
  return true;
}

std::string replayFilesJson(const std::vector<std::string> &Files) {
  return nlohmann::json(Files).dump(1) + "\n";
}

} // namespace orrery::run
