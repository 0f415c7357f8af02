//===- Hockney.h - Latency-bandwidth transfer terms -------------*- C++ -*-===//
//
// t(n) = latency + n / bandwidth (Hockney; LogGP's o and g folded into the
// latency), the form of every t_x(n) of the paper's cost model.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_HOCKNEY_H
#define ORRERY_MODELS_HOCKNEY_H

namespace orrery::models {

struct Hockney {
  double Latency = 0;    ///< seconds
  double Bandwidth = 0;  ///< bytes per second; must be > 0
  bool Estimate = false; ///< latency or bandwidth is an estimate

  /// Time to move \p Bytes over this path. Zero bytes still pay the latency.
  double time(double Bytes) const { return Latency + Bytes / Bandwidth; }
};

} // namespace orrery::models

#endif // ORRERY_MODELS_HOCKNEY_H
