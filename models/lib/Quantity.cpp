//===- Quantity.cpp - Provenance helpers
//-----------------------------------===//

#include "orrery/models/Quantity.h"

namespace orrery::models {

std::string_view valueKindName(ValueKind K) {
  switch (K) {
  case ValueKind::Spec:
    return "spec";
  case ValueKind::Measured:
    return "measured";
  case ValueKind::Code:
    return "code";
  case ValueKind::Estimate:
    return "estimate";
  }
  return "?";
}

std::string SourceLocation::str() const {
  std::string S = File.empty() ? std::string("<input>") : File;
  if (Line > 0) {
    S += ":" + std::to_string(Line);
    if (Column > 0)
      S += ":" + std::to_string(Column);
  }
  return S;
}

Quantity Quantity::make(double BaseValue, Dimension D, ValueKind K) {
  Quantity Q;
  Q.Value = BaseValue;
  Q.Written = BaseValue;
  Q.Dim = D;
  Q.Kind = K;
  return Q;
}

} // namespace orrery::models
