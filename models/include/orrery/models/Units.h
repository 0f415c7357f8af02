//===- Units.h - Physical units of machine-file quantities ------*- C++ -*-===//
//
// Every number in a machine file names its unit. This header maps unit
// spellings to a factor into the SI base unit of each dimension, so the rest of
// the library only sees bytes/s, seconds, FLOP/s, bytes, Hz and plain numbers.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_UNITS_H
#define ORRERY_MODELS_UNITS_H

#include <optional>
#include <string>
#include <string_view>

namespace orrery::models {

/// What a quantity measures; decides which unit spellings are accepted.
enum class Dimension {
  Bandwidth, ///< base: bytes per second
  Time,      ///< base: seconds
  Rate,      ///< base: operations (FLOP or OP) per second
  Bytes,     ///< base: bytes
  Frequency, ///< base: hertz
  Count,     ///< a whole number of things; unit "count"
  Ratio,     ///< a fraction; unit "ratio" (0..1) or "%"
  OpWeight,  ///< FLOP-equivalents charged per operation; unit "FLOP/op"
};

/// Human-readable name of \p D ("bandwidth", "time", ...).
std::string_view dimensionName(Dimension D);

/// The unit spellings accepted for \p D, for error messages.
std::string_view acceptedUnits(Dimension D);

/// Factor that converts a value given in \p Unit into the base unit of \p D,
/// or std::nullopt when \p Unit is not a unit of \p D.
std::optional<double> unitFactor(Dimension D, std::string_view Unit);

/// Formats \p BaseValue (in the base unit of \p D) with a readable unit,
/// e.g. 2.5e10 bytes/s -> "25 GB/s".
std::string formatQuantity(double BaseValue, Dimension D);

} // namespace orrery::models

#endif // ORRERY_MODELS_UNITS_H
