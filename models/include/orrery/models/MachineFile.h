//===- MachineFile.h - Reading and validating machine files -----*- C++ -*-===//
//
// Reads a machine file (docs/machine-file.md) into a Machine, checking every
// key, unit and value. Problems are collected, not thrown: each names the
// file, line and column and says what to do.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_MACHINEFILE_H
#define ORRERY_MODELS_MACHINEFILE_H

#include "orrery/models/Machine.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace orrery::models {

/// The schema identifier every machine file starts with.
inline constexpr std::string_view MachineSchemaId = "orrery-machine/1";

struct Diagnostic {
  SourceLocation Loc;
  std::string Message;
  /// "file:line:column: error: message"
  std::string str() const;
};

/// A full machine, or a network section alone (e.g. slingshot.yaml) that
/// replaces a machine's network with applyNetwork().
enum class FileType { Machine, Network };

struct ParsedFile {
  FileType Type = FileType::Machine;
  /// For a network file only Name, Description, Network and Quantities are set.
  Machine M;
  std::vector<Diagnostic> Errors;
  bool ok() const { return Errors.empty(); }
};

/// Parses machine-file text; \p FileName is used in diagnostics only.
ParsedFile parseMachineText(std::string_view Text, const std::string &FileName);

/// Reads and parses the file at \p Path.
ParsedFile loadMachineFile(const std::string &Path);

/// Starts recording (into \p Into) or stops (null) the dotted path of every
/// key the reader asks for while it parses: the schema as the reader sees
/// it, for the files read (`orrery-model check --keys`, against which
/// docs/machine-file.md's key tables are tested).
void recordMachineKeys(std::set<std::string> *Into);

/// Replaces the network of \p M by the one of \p Net (a parsed network file)
/// and updates the quantity list accordingly.
void applyNetwork(Machine &M, const Machine &Net);

} // namespace orrery::models

#endif // ORRERY_MODELS_MACHINEFILE_H
