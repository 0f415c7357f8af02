//===- ValueSchedule.h - What successive device reads get -------*- C++ -*-===//
//
// A simulated GPU holds no data, so the host reads a value the user gives
// (orrery-run --device-value FILE:LINE=SCHEDULE). One constant says
// "converged now" or "never"; a schedule gives each successive read of a
// site (per rank) its own value:
//
//   1.0                   every read
//   1.0*59,1e-12          59 reads of 1.0, then 1e-12 for good
//   1.0*59,1e-12*1        the same, repeated: 60 reads a cycle
//   geom(1.0,0.7)         1.0, 0.7, 0.49, ... (read k: 1.0 x 0.7^k)
//   geom(1,0.5)*20,0      a segment of 20 geometric reads, then 0
//   keep*3,0              3 reads left as the simulation has them, then 0
//
// A value is a number as liborrery-sim writes it (decimal, floating point,
// 0x hex) or `keep`: what the read gets without a value (zeros for a copy
// out of device memory, the computed result for an MPI reduction); `*N` is
// a segment's length (N >= 1). Without a length the last segment holds for
// every later read; with one, the schedule starts again.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_SUPPORT_VALUESCHEDULE_H
#define ORRERY_SUPPORT_VALUESCHEDULE_H

#include <cstdint>
#include <string>
#include <vector>

namespace orrery::support {

struct ValueSchedule {
  struct Segment {
    std::string Value;      ///< the value as written (constant segments)
    bool Geometric = false; ///< geom(Start,Ratio): Start x Ratio^k
    double Start = 0, Ratio = 1;
    std::uint64_t Length = 0; ///< 0: for good (the last segment only)
  };
  std::vector<Segment> Segments;

  /// The text of the value read \p Index-th (from 0): a segment's constant
  /// as written, or a geometric term printed with 17 significant digits.
  std::string valueAt(std::uint64_t Index) const;
  /// True when every read gets the same value (one constant segment).
  bool constant() const {
    return Segments.size() == 1 && !Segments[0].Geometric &&
           Segments[0].Length == 0;
  }
};

/// Parses \p Text; false with \p Error saying what is wrong (and the
/// syntax) when it is not a schedule.
bool parseValueSchedule(const std::string &Text, ValueSchedule &Out,
                        std::string &Error);

} // namespace orrery::support

#endif
