//===- Quantity.h - A machine-file number with unit and provenance -*- C++ -*-//
//
// Every number in a machine file is written {value, unit, kind, source}. A
// Quantity keeps the value converted to its base unit plus everything needed
// to say where it came from and how far to trust it.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_QUANTITY_H
#define ORRERY_MODELS_QUANTITY_H

#include "orrery/models/Units.h"

#include <string>
#include <string_view>

namespace orrery::models {

/// Where a number comes from (docs/machine-file.md: spec, measured, code,
/// estimate).
enum class ValueKind {
  Spec,     ///< a datasheet value
  Measured, ///< a published or local measurement
  Code,     ///< a constant in a public code base's own model (UCX, NCCL)
  Estimate, ///< an engineering default awaiting calibration
};

std::string_view valueKindName(ValueKind K);

/// A position in a text file; line and column count from 1 (0: unknown).
struct SourceLocation {
  std::string File;
  int Line = 0;
  int Column = 0;

  /// "file:line:column" (or the parts that are known).
  std::string str() const;
};

struct Quantity {
  double Value = 0;   ///< in the base unit of Dim (bytes/s, s, FLOP/s, ...)
  double Written = 0; ///< as written in the file, in Unit
  std::string Unit;
  Dimension Dim = Dimension::Count;
  ValueKind Kind = ValueKind::Estimate;
  std::string Source;
  SourceLocation Loc;

  /// A quantity built in code (tests, defaults): value in the base unit.
  static Quantity make(double BaseValue, Dimension D,
                       ValueKind K = ValueKind::Spec);
};

/// A quantity with its dotted path in the file ("gpu.memory.bandwidth").
struct NamedQuantity {
  std::string Path;
  Quantity Q;
};

} // namespace orrery::models

#endif // ORRERY_MODELS_QUANTITY_H
