//===- ReportCheck.cpp - A report, checked against its schema -------------===//

#include "orrery/formats/ReportCheck.h"
#include "orrery/formats/Formats.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

using nlohmann::json;

namespace orrery::formats {

namespace {

std::string path(const std::string &Where, const std::string &Key) {
  return Where.empty() ? Key : Where + "." + Key;
}

bool belongs(Kinds In, bool Measured) {
  return In == Kinds::Both || (In == Kinds::Measured) == Measured;
}

class Checker {
public:
  Checker(CheckMode Mode, bool Measured) : Mode(Mode), Measured(Measured) {}
  std::string Error;

  bool object(const json &Obj, const char *Parent, const std::string &Where) {
    for (const ReportField &F : reportFields()) {
      if (std::strcmp(F.Parent, Parent) != 0)
        continue;
      auto It = Obj.find(F.Key);
      std::string P = path(Where, F.Key);
      if (!belongs(F.In, Measured)) {
        if (It != Obj.end() && Mode == CheckMode::Written)
          return fail("'" + P + "' does not belong in a " +
                      (Measured ? "measured" : "predicted") + " report");
        continue;
      }
      if (It == Obj.end()) {
        if (F.When == Presence::Core ||
            (F.When == Presence::Always && Mode == CheckMode::Written))
          return fail("missing '" + P + "'");
        continue;
      }
      if (!value(*It, F, P))
        return false;
    }
    if (Mode == CheckMode::Written)
      for (const auto &[Key, Value] : Obj.items())
        if (!known(Parent, Key))
          return fail("'" + path(Where, Key) + "' is not a field of " +
                      ReportSchema +
                      " (add it to formats/include/orrery/formats/"
                      "ReportFields.def)");
    return true;
  }

private:
  CheckMode Mode;
  bool Measured;

  bool fail(const std::string &Msg) {
    Error = Msg;
    return false;
  }

  static bool known(const char *Parent, const std::string &Key) {
    for (const ReportField &F : reportFields())
      if (std::strcmp(F.Parent, Parent) == 0 && Key == F.Key)
        return true;
    return false;
  }

  bool number(const json &V, const std::string &P) {
    if (!V.is_number())
      return fail("'" + P + "' must be a number, not " + V.dump());
    double D = V.get<double>();
    if (!std::isfinite(D) || D < 0)
      return fail("'" + P + "' must be a finite number >= 0, not " + V.dump());
    return true;
  }

  bool seconds(const json &V, const std::string &P) {
    if (!V.is_object())
      return fail("'" + P + "' must be an object");
    for (const auto &[Key, S] : V.items()) {
      if (!number(S, P + "." + Key))
        return false;
      if (Mode == CheckMode::Written && !category(Key))
        return fail("'" + P + "." + Key + "' is not a category of a " +
                    (Measured ? "measured" : "predicted") +
                    " report (add it to formats/include/orrery/formats/"
                    "ReportCategories.def)");
    }
    if (Mode == CheckMode::Written)
      for (const ReportCategory &C : reportCategories())
        if (C.When == Presence::Always && !V.contains(C.Key))
          return fail("missing '" + P + "." + C.Key + "'");
    return true;
  }

  bool category(const std::string &Key) const {
    for (const ReportCategory &C : reportCategories())
      if (Key == C.Key)
        return Measured || !C.MeasuredOnly;
    return false;
  }

  bool value(const json &V, const ReportField &F, const std::string &P) {
    switch (F.Type) {
    case FieldType::KindWord:
      if (V != "measured" && V != "predicted")
        return fail("'" + P +
                    "' must be \"measured\" (a native run's report) or "
                    "\"predicted\", not " +
                    V.dump());
      return true;
    case FieldType::Text:
      if (!V.is_string())
        return fail("'" + P + "' must be a string, not " + V.dump());
      return true;
    case FieldType::Number:
      return number(V, P);
    case FieldType::Integer:
      if (!V.is_number() || !std::isfinite(V.get<double>()) ||
          V.get<double>() != std::floor(V.get<double>()))
        return fail("'" + P + "' must be a whole number, not " + V.dump());
      return true;
    case FieldType::Ranks:
      if (!number(V, P))
        return false;
      if (V.get<double>() < 1 || V.get<double>() != std::floor(V.get<double>()))
        return fail("'" + P + "' must be a whole number >= 1");
      return true;
    case FieldType::Flag:
      if (!V.is_boolean())
        return fail("'" + P + "' must be true or false, not " + V.dump());
      return true;
    case FieldType::Object:
      if (!V.is_object())
        return fail("'" + P + "' must be an object");
      return object(V, F.Id, P);
    case FieldType::Seconds:
      return seconds(V, P);
    case FieldType::Table:
      if (!V.is_array())
        return fail("'" + P + "' must be an array");
      for (std::size_t I = 0; I < V.size(); ++I) {
        std::string Row = P + "[" + std::to_string(I) + "]";
        if (!V[I].is_object())
          return fail("'" + Row + "' must be an object");
        if (!object(V[I], F.Id, Row))
          return false;
      }
      return true;
    case FieldType::Texts:
      if (!V.is_array())
        return fail("'" + P + "' must be an array");
      for (std::size_t I = 0; I < V.size(); ++I)
        if (!V[I].is_string())
          return fail("'" + P + "[" + std::to_string(I) +
                      "]' must be a string");
      return true;
    }
    return true;
  }
};

} // namespace

bool isMeasuredReport(const json &J) {
  auto It = J.find(report::Kind);
  return It != J.end() && *It == "measured";
}

bool checkReportSchema(const json &J, std::string &Error) {
  if (!J.is_object()) {
    Error = "not a report (expected a JSON object from orrery-run --report "
            "or ORRERY_REPORT)";
    return false;
  }
  auto It = J.find(report::Schema);
  if (It == J.end()) {
    Error = std::string("missing '") + report::Schema + "'";
    return false;
  }
  if (!It->is_string()) {
    Error = std::string("'") + report::Schema + "' must be a string, not " +
            It->dump();
    return false;
  }
  std::string S = It->get<std::string>();
  std::string Prefix = std::string(ReportSchemaName) + "/";
  const char *Digits = S.c_str() + Prefix.size();
  char *End = nullptr;
  long Version = S.rfind(Prefix, 0) == 0 && *Digits >= '0' && *Digits <= '9'
                     ? std::strtol(Digits, &End, 10)
                     : -1;
  if (Version < 0 || *End != '\0') {
    Error = "schema '" + S + "' is not " + Prefix +
            "N (write reports with orrery-run --report or ORRERY_REPORT)";
    return false;
  }
  if (Version != ReportSchemaVersion) {
    bool Newer = Version > ReportSchemaVersion;
    Error = "schema '" + S + "' is " + (Newer ? "newer" : "older") +
            " than this Orrery reads ('" + ReportSchema + "'); " +
            (Newer ? "read it with the Orrery that wrote it, or update this "
                     "one"
                   : "run the program again to write a current report");
    return false;
  }
  return true;
}

bool checkReport(const json &J, CheckMode Mode, std::string &Error) {
  if (!checkReportSchema(J, Error))
    return false;
  Checker C(Mode, isMeasuredReport(J));
  if (!C.object(J, "Root", "")) {
    Error = C.Error;
    return false;
  }
  return true;
}

} // namespace orrery::formats
