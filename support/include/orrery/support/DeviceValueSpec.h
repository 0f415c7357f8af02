//===- DeviceValueSpec.h - FILE:LINE[@ARG]=VALUE ----------------*- C++ -*-===//
//
// The one parser of a device value as users write it (orrery-run
// --device-value, a --device-values YAML file's keys, an orrery-sweep
// study's device_value setting): the source line of a copy, an MPI result
// or a call on the way to one (FILE:LINE), or of a kernel launch with the
// pointer parameter the kernel leaves the value in (FILE:LINE@ARG), and the
// value or schedule (ValueSchedule.h). docs/simulate.md has the meanings.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_SUPPORT_DEVICEVALUESPEC_H
#define ORRERY_SUPPORT_DEVICEVALUESPEC_H

#include <string>
#include <vector>

namespace orrery::support {

struct DeviceValueSpec {
  std::string File; ///< as given: a path or a base name
  unsigned Line = 0;
  std::string Arg;    ///< FILE:LINE@ARG: a name or an index from 0; or empty
  std::string Value;  ///< a value or a schedule
  std::string Origin; ///< "--device-value" or "FILE.yaml:LINE"
};

/// Whether \p Arg can name a kernel's pointer parameter after '@' (or in
/// `#pragma orrery device_value(ARG=VALUE)`): an identifier or an index.
bool isParameterName(const std::string &Arg);

/// Parses FILE:LINE or FILE:LINE@ARG into \p Out; false with \p Why (a
/// sentence naming \p Where and the fix) when it is neither.
bool parseDeviceValueSite(const std::string &Where, DeviceValueSpec &Out,
                          std::string &Why);

/// Parses a value or schedule for \p Where into \p Out.Value; false with
/// \p Why.
bool parseDeviceValueText(const std::string &Value, const std::string &Where,
                          DeviceValueSpec &Out, std::string &Why);

/// Parses FILE:LINE[@ARG]=VALUE.
bool parseDeviceValueSpec(const std::string &Spec, DeviceValueSpec &Out,
                          std::string &Why);

/// The JSON list of \p Values liborrery-sim reads from the file
/// ORRERY_DEVICE_VALUES names.
std::string deviceValuesJson(const std::vector<DeviceValueSpec> &Values);

/// Parses such a list; false with \p Why naming the entry at fault.
bool parseDeviceValuesJson(const std::string &Text,
                           std::vector<DeviceValueSpec> &Out, std::string &Why);

} // namespace orrery::support

#endif
