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

#include "orrery/support/DeviceValueSpec.h"

#include <string>
#include <vector>

namespace orrery::run {

/// A --device-value or a --device-values entry, with where it was given.
using DeviceValue = support::DeviceValueSpec;

/// Parses FILE:LINE=VALUE; false with \p Error naming \p Origin on a problem.
bool parseDeviceValue(const std::string &Spec, const std::string &Origin,
                      DeviceValue &Out, std::string &Error);

/// Reads a YAML map `FILE:LINE: VALUE` (one entry per read site).
bool readDeviceValueFile(const std::string &Path, std::vector<DeviceValue> &Out,
                         std::string &Error);

/// --replay-reads FILE: checks that \p Path is a recorded file
/// (orrery/support/RecordedReads.h) of the same run as those in \p Files
/// (same world size, another rank) and appends its absolute path.
bool addReplayFile(const std::string &Path, std::vector<std::string> &Files,
                   std::string &Error);

/// ORRERY_REPLAY_READS's file: the JSON list of \p Files.
std::string replayFilesJson(const std::vector<std::string> &Files);

} // namespace orrery::run

#endif
