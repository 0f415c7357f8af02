//===- DeviceValueOptions.cpp - --device-value and --device-values --------===//

#include "DeviceValueOptions.h"
#include "orrery/support/RecordedReads.h"

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <filesystem>

namespace orrery::run {

bool parseDeviceValue(const std::string &Spec, const std::string &Origin,
                      DeviceValue &Out, std::string &Error) {
  std::string Why;
  if (!support::parseDeviceValueSpec(Spec, Out, Why)) {
    Error = Origin + ": " + Why;
    return false;
  }
  Out.Origin = Origin;
  return true;
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
    std::string Where = KV.first.Scalar(), Why;
    if (!support::parseDeviceValueSite(Where, D, Why) ||
        !support::parseDeviceValueText(KV.second.Scalar(), Where, D, Why)) {
      Error = Origin + ": " + Why;
      return false;
    }
    D.Origin = Origin;
    Out.push_back(std::move(D));
  }
  return true;
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
