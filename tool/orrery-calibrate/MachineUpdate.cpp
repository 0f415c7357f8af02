//===- MachineUpdate.cpp - Writing measured numbers into a machine file ---===//

#include "MachineUpdate.h"

#include "orrery/models/MachineFile.h"
#include "orrery/support/AtomicFile.h"

#include <yaml-cpp/yaml.h>

#include <set>
#include <sstream>

namespace orrery::calibrate {

namespace {

bool isIndex(const std::string &Key) {
  return !Key.empty() && Key.find_first_not_of("0123456789") == Key.npos;
}

/// The node at dotted \p Path under \p Root, created as needed. A numeric
/// key indexes a list ("node.shm_transport.bands.0.from"); a list the update
/// reaches for the first time starts empty, so measured lists replace the
/// base file's whole (\p Fresh remembers which were started).
YAML::Node at(YAML::Node Root, const std::string &Path,
              std::set<std::string> &Fresh) {
  std::stringstream SS(Path);
  std::string Key, Prefix;
  YAML::Node N = Root;
  while (std::getline(SS, Key, '.')) {
    if (isIndex(Key)) {
      if (Fresh.insert(Prefix).second || !N.IsSequence())
        N = YAML::Node(YAML::NodeType::Sequence);
      std::size_t I = std::stoul(Key);
      while (N.size() <= I)
        N.push_back(YAML::Node(YAML::NodeType::Map));
      YAML::Node Next = N[I];
      N.reset(Next);
    } else {
      YAML::Node Next = N[Key];
      N.reset(Next);
    }
    Prefix += (Prefix.empty() ? "" : ".") + Key;
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
  std::set<std::string> Fresh;
  for (const MeasuredValue &V : Values) {
    YAML::Node Q(YAML::NodeType::Map);
    Q.SetStyle(YAML::EmitterStyle::Flow);
    Q["value"] = V.Value;
    Q["unit"] = V.Unit;
    Q["kind"] = V.Kind;
    Q["source"] = V.Source;
    YAML::Node N = at(Root, V.Path, Fresh);
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
