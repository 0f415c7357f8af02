//===- MachineUpdate.h - Writing measured numbers into a machine file -*- C++
//-*-//
//
// Loads a base machine file with yaml-cpp, replaces the quantities the probes
// measured by {value, unit, kind: measured, source}, checks the result with
// the models library (as orrery-model check does) and writes it through a
// temporary file renamed over the destination.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_CALIBRATE_MACHINEUPDATE_H
#define ORRERY_TOOL_CALIBRATE_MACHINEUPDATE_H

#include <string>
#include <vector>

namespace orrery::calibrate {

struct MeasuredValue {
  /// Dotted key, e.g. "node.shm_transport.latency"; a numeric key indexes a
  /// list ("node.shm_transport.bands.0.from"), which replaces the base's.
  std::string Path;
  double Value = 0;
  std::string Unit;
  std::string Source;
  std::string Kind = "measured"; ///< "estimate" for what the user chose
};

/// Writes \p BasePath with \p Values replaced (the machine renamed \p Name,
/// or its name plus "-calibrated" when \p Name is empty) to \p OutPath. False
/// with \p Error naming the file and what is wrong; \p OutPath is then
/// untouched.
bool writeMachine(const std::string &BasePath, const std::string &OutPath,
                  const std::string &Name, const std::string &Description,
                  const std::vector<MeasuredValue> &Values, std::string &Error);

} // namespace orrery::calibrate

#endif // ORRERY_TOOL_CALIBRATE_MACHINEUPDATE_H
