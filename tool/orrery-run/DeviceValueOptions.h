//===- DeviceValueOptions.h - --device-value and --device-values -*- C++
//-*-===//
//
// Values of device memory a skeleton program reads back (docs/simulate.md,
// "Running published codes"): FILE:LINE=VALUE on the command line, or a YAML
// map of FILE:LINE to VALUE, handed to liborrery-sim as a JSON file named by
// ORRERY_DEVICE_VALUES.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_RUN_DEVICEVALUEOPTIONS_H
#define ORRERY_TOOL_RUN_DEVICEVALUEOPTIONS_H

#include <string>
#include <vector>

namespace orrery::run {

struct DeviceValue {
  std::string File; ///< as the manifest names it, or its base name
  unsigned Line = 0;
  /// FILE:LINE@ARG: the launched kernel's pointer parameter the value is
  /// left in (empty: a copy or an MPI result at the line)
  std::string Arg;
  std::string Value;
  std::string Origin; ///< "--device-value" or "FILE.yaml:LINE"
};

/// Parses FILE:LINE=VALUE; false with \p Error naming \p Origin on a problem.
bool parseDeviceValue(const std::string &Spec, const std::string &Origin,
                      DeviceValue &Out, std::string &Error);

/// Reads a YAML map `FILE:LINE: VALUE` (one entry per read site).
bool readDeviceValueFile(const std::string &Path, std::vector<DeviceValue> &Out,
                         std::string &Error);

/// The JSON list liborrery-sim reads from ORRERY_DEVICE_VALUES.
std::string deviceValuesJson(const std::vector<DeviceValue> &Values);

/// --replay-reads FILE: checks that \p Path is a recorded file
/// (orrery/support/RecordedReads.h) of the same run as those in \p Files
/// (same world size, another rank) and appends its absolute path.
bool addReplayFile(const std::string &Path, std::vector<std::string> &Files,
                   std::string &Error);

/// ORRERY_REPLAY_READS's file: the JSON list of \p Files.
std::string replayFilesJson(const std::vector<std::string> &Files);

} // namespace orrery::run

#endif
