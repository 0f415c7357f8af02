//===- Units.cpp - Unit spellings and conversions -------------------------===//

#include "orrery/models/Units.h"

#include <cmath>
#include <cstdio>
#include <utility>

namespace orrery::models {
namespace {

struct UnitEntry {
  std::string_view Name;
  double Factor;
};

// Decimal prefixes for SI units, binary prefixes for bytes, as IEC writes them.
// Lower-case "b" is a bit, upper-case "B" a byte (Gb/s == Gbit/s).
constexpr UnitEntry BandwidthUnits[] = {
    {"B/s", 1.0},
    {"KB/s", 1e3},
    {"kB/s", 1e3},
    {"MB/s", 1e6},
    {"GB/s", 1e9},
    {"TB/s", 1e12},
    {"KiB/s", 1024.0},
    {"MiB/s", 1048576.0},
    {"GiB/s", 1073741824.0},
    {"TiB/s", 1099511627776.0},
    {"bit/s", 0.125},
    {"Kbit/s", 125.0},
    {"kbit/s", 125.0},
    {"Mbit/s", 1.25e5},
    {"Gbit/s", 1.25e8},
    {"Tbit/s", 1.25e11},
    {"Kb/s", 125.0},
    {"Mb/s", 1.25e5},
    {"Gb/s", 1.25e8},
    {"Tb/s", 1.25e11},
};
constexpr UnitEntry TimeUnits[] = {
    {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"\xC2\xB5s", 1e-6}, {"ns", 1e-9},
};
constexpr UnitEntry RateUnits[] = {
    {"FLOP/s", 1.0},   {"KFLOP/s", 1e3},  {"MFLOP/s", 1e6}, {"GFLOP/s", 1e9},
    {"TFLOP/s", 1e12}, {"PFLOP/s", 1e15}, {"OP/s", 1.0},    {"KOP/s", 1e3},
    {"MOP/s", 1e6},    {"GOP/s", 1e9},    {"TOP/s", 1e12},  {"POP/s", 1e15},
};
constexpr UnitEntry ByteUnits[] = {
    {"B", 1.0},
    {"KB", 1e3},
    {"kB", 1e3},
    {"MB", 1e6},
    {"GB", 1e9},
    {"TB", 1e12},
    {"KiB", 1024.0},
    {"MiB", 1048576.0},
    {"GiB", 1073741824.0},
    {"TiB", 1099511627776.0},
};
constexpr UnitEntry FrequencyUnits[] = {
    {"Hz", 1.0},
    {"kHz", 1e3},
    {"MHz", 1e6},
    {"GHz", 1e9},
};
constexpr UnitEntry CountUnits[] = {{"count", 1.0}};
constexpr UnitEntry RatioUnits[] = {{"ratio", 1.0}, {"%", 0.01}};
constexpr UnitEntry OpWeightUnits[] = {{"FLOP/op", 1.0}};

template <std::size_t N>
std::optional<double> lookup(const UnitEntry (&Table)[N],
                             std::string_view Unit) {
  for (const UnitEntry &E : Table)
    if (E.Name == Unit)
      return E.Factor;
  return std::nullopt;
}

std::string formatScaled(double V, const UnitEntry *Scale, std::size_t N) {
  // Pick the largest unit that keeps the mantissa >= 1.
  const UnitEntry *Best = &Scale[0];
  for (std::size_t I = 0; I < N; ++I)
    if (std::fabs(V) >= Scale[I].Factor)
      Best = &Scale[I];
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.6g %.*s", V / Best->Factor,
                static_cast<int>(Best->Name.size()), Best->Name.data());
  return Buf;
}

} // namespace

std::string_view dimensionName(Dimension D) {
  switch (D) {
  case Dimension::Bandwidth:
    return "bandwidth";
  case Dimension::Time:
    return "time";
  case Dimension::Rate:
    return "rate";
  case Dimension::Bytes:
    return "size";
  case Dimension::Frequency:
    return "frequency";
  case Dimension::Count:
    return "count";
  case Dimension::Ratio:
    return "ratio";
  case Dimension::OpWeight:
    return "operation weight";
  }
  return "?";
}

std::string_view acceptedUnits(Dimension D) {
  switch (D) {
  case Dimension::Bandwidth:
    return "B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, bit/s, Mbit/s, "
           "Gbit/s (or Gb/s), Tbit/s";
  case Dimension::Time:
    return "s, ms, us, ns";
  case Dimension::Rate:
    return "FLOP/s, GFLOP/s, TFLOP/s, PFLOP/s, OP/s, GOP/s, TOP/s";
  case Dimension::Bytes:
    return "B, KB, MB, GB, KiB, MiB, GiB";
  case Dimension::Frequency:
    return "Hz, kHz, MHz, GHz";
  case Dimension::Count:
    return "count";
  case Dimension::Ratio:
    return "ratio (0..1), %";
  case Dimension::OpWeight:
    return "FLOP/op";
  }
  return "";
}

std::optional<double> unitFactor(Dimension D, std::string_view Unit) {
  switch (D) {
  case Dimension::Bandwidth:
    return lookup(BandwidthUnits, Unit);
  case Dimension::Time:
    return lookup(TimeUnits, Unit);
  case Dimension::Rate:
    return lookup(RateUnits, Unit);
  case Dimension::Bytes:
    return lookup(ByteUnits, Unit);
  case Dimension::Frequency:
    return lookup(FrequencyUnits, Unit);
  case Dimension::Count:
    return lookup(CountUnits, Unit);
  case Dimension::Ratio:
    return lookup(RatioUnits, Unit);
  case Dimension::OpWeight:
    return lookup(OpWeightUnits, Unit);
  }
  return std::nullopt;
}

std::string formatQuantity(double V, Dimension D) {
  static constexpr UnitEntry Bw[] = {{"B/s", 1.0},
                                     {"KB/s", 1e3},
                                     {"MB/s", 1e6},
                                     {"GB/s", 1e9},
                                     {"TB/s", 1e12}};
  static constexpr UnitEntry Tm[] = {
      {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}};
  static constexpr UnitEntry Rt[] = {
      {"FLOP/s", 1.0}, {"MFLOP/s", 1e6}, {"GFLOP/s", 1e9}, {"TFLOP/s", 1e12}};
  static constexpr UnitEntry By[] = {
      {"B", 1.0}, {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}};
  static constexpr UnitEntry Fq[] = {
      {"Hz", 1.0}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
  char Buf[64];
  switch (D) {
  case Dimension::Bandwidth:
    return formatScaled(V, Bw, std::size(Bw));
  case Dimension::Time:
    if (V == 0)
      return "0 s";
    return formatScaled(V, Tm, std::size(Tm));
  case Dimension::Rate:
    return formatScaled(V, Rt, std::size(Rt));
  case Dimension::Bytes:
    return formatScaled(V, By, std::size(By));
  case Dimension::Frequency:
    return formatScaled(V, Fq, std::size(Fq));
  case Dimension::Count:
    std::snprintf(Buf, sizeof(Buf), "%.6g", V);
    return Buf;
  case Dimension::Ratio:
    std::snprintf(Buf, sizeof(Buf), "%.6g", V);
    return Buf;
  case Dimension::OpWeight:
    std::snprintf(Buf, sizeof(Buf), "%.6g FLOP/op", V);
    return Buf;
  }
  return "?";
}

} // namespace orrery::models
