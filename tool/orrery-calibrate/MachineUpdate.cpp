//===- MachineUpdate.cpp - Writing measured numbers into a machine file ---===//

#include "MachineUpdate.h"

#include "orrery/models/MachineFile.h"
#include "orrery/support/AtomicFile.h"

#include <yaml-cpp/yaml.h>

#include <sstream>

namespace orrery::calibrate {

namespace {

/// The node at dotted \p Path under \p Root, created as needed.
YAML::Node at(YAML::Node Root, const std::string &Path) {
  std::stringstream SS(Path);
  std::string Key;
  YAML::Node N = Root;
  while (std::getline(SS, Key, '.')) {
    YAML::Node Next = N[Key];
    N.reset(Next);
  }
  return N;
}

} // namespace

bool writeMachine(const std::string &BasePath, const std::string &OutPath,
                  const std::string &Name, const std::string &Description,
                  const std::vector<MeasuredValue> &Values,
                  std::string &Error) {
  YAML::Node Root;
  try {
    Root = YAML::LoadFile(BasePath);
  } catch (const YAML::Exception &E) {
    Error = BasePath + ":" + std::to_string(E.mark.line + 1) + ":" +
            std::to_string(E.mark.column + 1) +
            ": cannot read the base "
            "machine file (--base): " +
            E.msg;
    return false;
  }
  if (!Root.IsMap() || !Root["type"] ||
      Root["type"].as<std::string>("") != "machine") {
    Error = BasePath + ": --base must be a machine file (type: machine)";
    return false;
  }
  Root["name"] = !Name.empty()
                     ? Name
                     : Root["name"].as<std::string>("machine") + "-calibrated";
  if (!Description.empty())
    Root["description"] = Description;
  for (const MeasuredValue &V : Values) {
    YAML::Node Q(YAML::NodeType::Map);
    Q.SetStyle(YAML::EmitterStyle::Flow);
    Q["value"] = V.Value;
    Q["unit"] = V.Unit;
    Q["kind"] = "measured";
    Q["source"] = V.Source;
    YAML::Node N = at(Root, V.Path);
    N = Q;
  }
  YAML::Emitter Emit;
  Emit.SetDoublePrecision(6);
  Emit << Root;
  std::string Text = std::string("# Written by orrery-calibrate from ") +
                     "the base machine file " + BasePath +
                     "; measured numbers carry kind: measured.\n" +
                     Emit.c_str() + "\n";
  // Check before writing: an invalid file is never left at OutPath.
  models::ParsedFile P = models::parseMachineText(Text, OutPath);
  if (!P.ok()) {
    Error = "the calibrated machine file does not validate:";
    for (const models::Diagnostic &D : P.Errors)
      Error += "\n  " + D.str();
    return false;
  }
  return support::writeFileAtomically(OutPath, Text, Error);
}

} // namespace orrery::calibrate
