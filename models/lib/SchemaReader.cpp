//===- SchemaReader.cpp - Checked access to YAML mappings -----------------===//

#include "SchemaReader.h"

#include <cmath>
#include <cstdio>
#include <map>

namespace orrery::models::detail {

SourceLocation Reader::loc(const YAML::Mark &M) const {
  SourceLocation L;
  L.File = File;
  if (!M.is_null()) {
    L.Line = M.line + 1;
    L.Column = M.column + 1;
  }
  return L;
}

void Reader::error(const YAML::Mark &M, std::string Message) {
  Errors.push_back({loc(M), std::move(Message)});
}

MapScope::MapScope(Reader &R, const YAML::Node &N, std::string P)
    : R(R), Node(N), Path(std::move(P)), Mark(N.Mark()) {
  if (!N.IsDefined())
    return; // Missing; the caller reported it.
  if (!N.IsMap()) {
    R.error(Mark, "'" + Path + "' must be a mapping of keys to values");
    return;
  }
  Valid = true;
}

namespace {
std::set<std::string> *KeyRecorder = nullptr;
} // namespace

std::string MapScope::path(const char *Key) const {
  return Path.empty() ? std::string(Key) : Path + "." + Key;
}

void MapScope::asked(const char *Key) const {
  if (KeyRecorder)
    KeyRecorder->insert(path(Key));
}

bool MapScope::has(const char *Key) const {
  asked(Key);
  if (!Valid)
    return false;
  for (auto It = Node.begin(); It != Node.end(); ++It)
    if (It->first.IsScalar() && It->first.Scalar() == Key)
      return true;
  return false;
}

YAML::Node MapScope::peek(const char *Key) const {
  if (Valid)
    for (auto It = Node.begin(); It != Node.end(); ++It)
      if (It->first.IsScalar() && It->first.Scalar() == Key)
        return It->second;
  return YAML::Node(YAML::NodeType::Undefined);
}

YAML::Node MapScope::lookup(const char *Key, bool Required) {
  Known.insert(Key);
  asked(Key);
  if (!Valid)
    return YAML::Node(YAML::NodeType::Undefined);
  for (auto It = Node.begin(); It != Node.end(); ++It)
    if (It->first.IsScalar() && It->first.Scalar() == Key)
      return It->second;
  if (Required)
    R.error(Mark, "missing key '" + path(Key) +
                      "'; add it (see "
                      "docs/machine-file.md)");
  return YAML::Node(YAML::NodeType::Undefined);
}

namespace {

std::string fmt(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%g", V);
  return Buf;
}

bool parseKind(const std::string &S, ValueKind &K) {
  if (S == "spec")
    K = ValueKind::Spec;
  else if (S == "measured")
    K = ValueKind::Measured;
  else if (S == "code")
    K = ValueKind::Code;
  else if (S == "estimate")
    K = ValueKind::Estimate;
  else
    return false;
  return true;
}

} // namespace

Quantity MapScope::quantity(const char *Key, Dimension D, const Limits &L) {
  size_t Before = R.errorCount();
  Quantity Q = readQuantity(Key, D, L);
  Refused |= R.errorCount() != Before;
  return Q;
}

Quantity MapScope::readQuantity(const char *Key, Dimension D, const Limits &L) {
  Quantity Q;
  Q.Dim = D;
  YAML::Node N = lookup(Key, /*Required=*/true);
  if (!N.IsDefined())
    return Q;
  const std::string P = path(Key);
  Q.Loc = R.loc(N.Mark());
  if (!N.IsMap()) {
    R.error(N.Mark(), "'" + P +
                          "' must be written {value, unit, kind, "
                          "source}, e.g. {value: 25, unit: GB/s, kind: spec, "
                          "source: \"datasheet\"}");
    return Q;
  }
  bool Ok = true;
  std::map<std::string, YAML::Node> Fields;
  for (auto It = N.begin(); It != N.end(); ++It) {
    std::string K = It->first.IsScalar() ? It->first.Scalar() : "";
    if (K != "value" && K != "unit" && K != "kind" && K != "source") {
      R.error(It->first.Mark(), "unknown key '" + K + "' in '" + P +
                                    "'; a number has only value, unit, "
                                    "kind and source");
      Ok = false;
      continue;
    }
    if (Fields.count(K)) {
      R.error(It->first.Mark(), "duplicate key '" + K + "' in '" + P + "'");
      Ok = false;
      continue;
    }
    Fields[K] = It->second;
  }
  for (const char *Need : {"value", "unit", "kind", "source"})
    if (!Fields.count(Need)) {
      R.error(N.Mark(), "'" + P + "' lacks '" + Need +
                            "'; every number needs value, unit, kind "
                            "(spec|measured|code|estimate) and source");
      Ok = false;
    }
  if (!Ok)
    return Q;

  const YAML::Node &V = Fields["value"];
  double Value = 0;
  bool IsNumber = V.IsScalar();
  if (IsNumber) {
    try {
      Value = V.as<double>();
    } catch (const YAML::Exception &) {
      IsNumber = false;
    }
  }
  if (!IsNumber || !std::isfinite(Value)) {
    R.error(V.Mark(), "'" + P + ".value' must be a finite number" +
                          (V.IsScalar() ? " (got '" + V.Scalar() +
                                              "'; put the unit in 'unit')"
                                        : std::string()));
    Ok = false;
  }

  const YAML::Node &U = Fields["unit"];
  std::string Unit = U.IsScalar() ? U.Scalar() : "";
  std::optional<double> Factor = unitFactor(D, Unit);
  if (!Factor) {
    R.error(U.Mark(), "'" + Unit + "' is not a unit of " +
                          std::string(dimensionName(D)) + " for '" + P +
                          "'; use one of: " + std::string(acceptedUnits(D)));
    Ok = false;
  }

  const YAML::Node &KN = Fields["kind"];
  if (!KN.IsScalar() || !parseKind(KN.Scalar(), Q.Kind)) {
    R.error(KN.Mark(), "'" + P +
                           ".kind' must be one of spec, measured, "
                           "code, estimate");
    Ok = false;
  }

  const YAML::Node &SN = Fields["source"];
  // A blank source ("   ") says no more than an empty one.
  if (!SN.IsScalar() ||
      SN.Scalar().find_first_not_of(" \t\r\n") == std::string::npos) {
    R.error(SN.Mark(), "'" + P +
                           ".source' must say where the number comes "
                           "from (a datasheet, a measurement, an issue); "
                           "write the reasoning for estimates");
    Ok = false;
  } else {
    Q.Source = SN.Scalar();
  }
  if (!Ok)
    return Q;

  Q.Written = Value;
  Q.Unit = Unit;
  Q.Value = Value * *Factor;
  bool Low = L.MinExclusive ? !(Q.Value > L.Min) : !(Q.Value >= L.Min);
  if (Low || Q.Value > L.Max) {
    std::string Range = (L.MinExclusive ? "> " : ">= ") +
                        formatQuantity(L.Min, D) +
                        " and <= " + formatQuantity(L.Max, D);
    R.error(V.Mark(), "'" + P + "' = " + fmt(Value) + " " + Unit +
                          (Q.Value < 0 ? " is negative" : " is implausible") +
                          "; expected " + Range);
    return Q;
  }
  if (L.Integer && std::floor(Q.Value) != Q.Value) {
    R.error(V.Mark(), "'" + P + "' must be a whole number, not " + fmt(Value));
    return Q;
  }
  R.addQuantity(P, Q);
  return Q;
}

std::string MapScope::string(const char *Key) { return scalar(Key, true); }

std::string MapScope::optionalString(const char *Key) {
  return scalar(Key, false);
}

std::string MapScope::scalar(const char *Key, bool Required) {
  YAML::Node N = lookup(Key, Required);
  if (!N.IsDefined())
    return "";
  if (!N.IsScalar()) {
    R.error(N.Mark(), "'" + path(Key) + "' must be a string");
    return "";
  }
  return N.Scalar();
}

bool MapScope::boolean(const char *Key) {
  YAML::Node N = lookup(Key, /*Required=*/true);
  if (!N.IsDefined())
    return false;
  if (N.IsScalar()) {
    const std::string &S = N.Scalar();
    if (S == "true")
      return true;
    if (S == "false")
      return false;
  }
  R.error(N.Mark(), "'" + path(Key) + "' must be true or false");
  return false;
}

int MapScope::choice(const char *Key,
                     std::initializer_list<const char *> Choices) {
  YAML::Node N = lookup(Key, /*Required=*/true);
  if (!N.IsDefined())
    return -1;
  std::string All;
  int I = 0;
  for (const char *C : Choices) {
    if (N.IsScalar() && N.Scalar() == C)
      return I;
    All += (I ? ", " : "") + std::string(C);
    ++I;
  }
  R.error(N.Mark(), "'" + path(Key) + "' must be one of: " + All);
  return -1;
}

std::vector<std::pair<std::string, YAML::Mark>>
MapScope::stringList(const char *Key) {
  std::vector<std::pair<std::string, YAML::Mark>> Out;
  YAML::Node N = lookup(Key, /*Required=*/true);
  if (!N.IsDefined())
    return Out;
  if (!N.IsSequence()) {
    R.error(N.Mark(), "'" + path(Key) + "' must be a list, e.g. [a, b]");
    return Out;
  }
  for (const YAML::Node &E : N) {
    if (!E.IsScalar()) {
      R.error(E.Mark(), "entries of '" + path(Key) + "' must be strings");
      continue;
    }
    Out.emplace_back(E.Scalar(), E.Mark());
  }
  return Out;
}

MapScope MapScope::map(const char *Key) {
  YAML::Node N = lookup(Key, /*Required=*/true);
  return MapScope(R, N, path(Key));
}

void MapScope::finish() {
  if (!Valid)
    return;
  std::set<std::string> Seen;
  for (auto It = Node.begin(); It != Node.end(); ++It) {
    std::string K = It->first.IsScalar() ? It->first.Scalar() : "";
    if (!Seen.insert(K).second) {
      R.error(It->first.Mark(), "duplicate key '" + path(K.c_str()) + "'");
      continue;
    }
    if (!Known.count(K)) {
      std::string Allowed;
      for (const std::string &A : Known)
        Allowed += (Allowed.empty() ? "" : ", ") + A;
      R.error(It->first.Mark(), "unknown key '" + path(K.c_str()) +
                                    "'; allowed here: " + Allowed);
    }
  }
}

} // namespace orrery::models::detail

namespace orrery::models {

void recordMachineKeys(std::set<std::string> *Into) {
  detail::KeyRecorder = Into;
}

} // namespace orrery::models
