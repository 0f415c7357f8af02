//===- Cost.h - A modelled duration with its breakdown ----------*- C++ -*-===//
//
// Every cost function returns a Cost: seconds per category, so reports can say
// where time goes. Network time (T_net) is SimGrid's; it is carried here only
// when a caller passes it in to evaluate a whole equation.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_COST_H
#define ORRERY_MODELS_COST_H

#include <array>
#include <string>
#include <string_view>

namespace orrery::models {

enum class CostCategory {
  Launch,       ///< t_launch (+ the latency floor of tiny kernels)
  Compute,      ///< kernel time bound by arithmetic
  Memory,       ///< kernel time bound by device memory
  DeviceLeg,    ///< t_leg: staging, GPUDirect, peer or local copies
  HostBounce,   ///< 2 t_d2h + t_h2d of reduction collectives (coll/cuda)
  Reduction,    ///< t_reduce on the host
  CallOverhead, ///< t_call of MPI, per-call overhead of CUDA copies
  Sync,         ///< t_sync
  Network,      ///< T_net (from SimGrid)
};
constexpr int NumCostCategories = 9;

std::string_view costCategoryName(CostCategory C);

class Cost {
public:
  Cost() { Parts.fill(0.0); }
  Cost(CostCategory C, double Seconds, bool Estimate = false) : Cost() {
    add(C, Seconds, Estimate);
  }

  /// Adds \p Seconds to \p C. \p Estimate marks time that rests on at least
  /// one machine-file number of kind 'estimate'.
  Cost &add(CostCategory C, double Seconds, bool Estimate = false) {
    Parts[static_cast<int>(C)] += Seconds;
    if (Estimate)
      Estimated += Seconds;
    return *this;
  }
  Cost &operator+=(const Cost &O) {
    for (int I = 0; I < NumCostCategories; ++I)
      Parts[I] += O.Parts[I];
    Estimated += O.Estimated;
    return *this;
  }
  friend Cost operator+(Cost A, const Cost &B) { return A += B; }

  double operator[](CostCategory C) const { return Parts[static_cast<int>(C)]; }
  /// Sum over all categories, in seconds.
  double total() const;
  /// Seconds of total() that rest on estimates.
  double estimated() const { return Estimated; }
  /// estimated() / total(), 0 for a zero cost.
  double estimateShare() const;
  /// "total 12.5 us (device leg 4 us, call overhead 1 us, ...)"; zero
  /// categories are left out.
  std::string str() const;

private:
  std::array<double, NumCostCategories> Parts;
  double Estimated = 0;
};

} // namespace orrery::models

#endif // ORRERY_MODELS_COST_H
