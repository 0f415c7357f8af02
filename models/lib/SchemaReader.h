//===- SchemaReader.h - Checked access to YAML mappings ---------*- C++ -*-===//
//
// Internal helper of the machine-file reader: typed, located access to the
// keys of a YAML mapping. Every key read is remembered so that finish() can
// report the keys nobody asked for as unknown.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_LIB_SCHEMAREADER_H
#define ORRERY_MODELS_LIB_SCHEMAREADER_H

#include "orrery/models/MachineFile.h"

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <set>
#include <string>
#include <vector>

namespace orrery::models::detail {

/// Plausible range of a quantity, in base units.
struct Limits {
  double Min;
  double Max;
  bool MinExclusive = true; ///< value must be > Min (else >= Min)
  bool Integer = false;
};

/// Collects diagnostics and quantities for one file.
class Reader {
public:
  Reader(std::string File, std::vector<Diagnostic> &Errors,
         std::vector<NamedQuantity> &Quantities)
      : File(std::move(File)), Errors(Errors), Quantities(Quantities) {}

  SourceLocation loc(const YAML::Mark &M) const;
  void error(const YAML::Mark &M, std::string Message);
  void addQuantity(std::string Path, const Quantity &Q) {
    Quantities.push_back({std::move(Path), Q});
  }
  size_t errorCount() const { return Errors.size(); }

private:
  std::string File;
  std::vector<Diagnostic> &Errors;
  std::vector<NamedQuantity> &Quantities;
};

/// One YAML mapping of the schema at dotted path Path.
class MapScope {
public:
  /// Reports an error when \p Node is defined but not a mapping.
  MapScope(Reader &R, const YAML::Node &Node, std::string Path);

  bool valid() const { return Valid; }
  /// valid(), and every quantity read from it so far was accepted: what a
  /// check across its fields may compare (a refused quantity keeps what was
  /// written, which may be a fraction or out of range, and has its error).
  bool accepted() const { return Valid && !Refused; }
  bool has(const char *Key) const;
  /// The value of \p Key without checking or marking it (undefined if absent).
  YAML::Node peek(const char *Key) const;

  /// The quantity at \p Key, checked against \p L (errors reported).
  Quantity quantity(const char *Key, Dimension D, const Limits &L);
  std::string string(const char *Key);
  std::string optionalString(const char *Key);
  /// A string value, required or not.
  std::string scalar(const char *Key, bool Required);
  bool boolean(const char *Key);
  /// Returns the index of the value in \p Choices, or -1 after an error.
  int choice(const char *Key, std::initializer_list<const char *> Choices);
  std::vector<std::pair<std::string, YAML::Mark>> stringList(const char *Key);
  MapScope map(const char *Key);
  /// Marks \p Key as known without reading it.
  void allow(const char *Key) {
    Known.insert(Key);
    asked(Key);
  }
  /// Reports unknown and duplicate keys. Call once all keys were read.
  void finish();

  const YAML::Mark &mark() const { return Mark; }
  std::string path(const char *Key) const;

private:
  Quantity readQuantity(const char *Key, Dimension D, const Limits &L);
  YAML::Node lookup(const char *Key, bool Required);
  /// Records \p Key's path while recordMachineKeys() is on.
  void asked(const char *Key) const;

  Reader &R;
  YAML::Node Node;
  std::string Path;
  YAML::Mark Mark;
  bool Valid = false;
  bool Refused = false; // a quantity read from it had an error
  std::set<std::string> Known;
};

} // namespace orrery::models::detail

#endif // ORRERY_MODELS_LIB_SCHEMAREADER_H
