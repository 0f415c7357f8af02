//===- Fit.h - Least-squares Hockney fits per size band ---------*- C++ -*-===//
//
// t(n) = latency + n / bandwidth fitted to probe samples by least squares on
// the relative error (each sample weighted by 1 / t^2, so a 1 us message
// counts as much as a 1 ms one), one fit per size band: protocol switches
// (eager, rendezvous, single copy) show as bands, not one line.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_CALIBRATE_FIT_H
#define ORRERY_TOOL_CALIBRATE_FIT_H

#include <string>
#include <vector>

namespace orrery::calibrate {

struct Sample {
  double Bytes = 0;
  double Seconds = 0;
};

struct HockneyFit {
  double Latency = 0;   ///< seconds
  double Bandwidth = 0; ///< bytes per second; 0 when the slope is not > 0
  /// Root mean square of (fit - sample) / sample.
  double Residual = 0;
  size_t Samples = 0;
  /// The fitted latency was negative and is reported as 0.
  bool LatencyClamped = false;
  /// Empty when the fit is usable, else why not.
  std::string Problem;
  double time(double Bytes) const {
    return Latency + (Bandwidth > 0 ? Bytes / Bandwidth : 0);
  }
};

/// Fits \p S (at least two distinct sizes). A fit whose residual exceeds
/// \p MaxResidual or whose slope is not positive gets a Problem; a negative
/// latency is clamped to 0.
HockneyFit fitHockney(const std::vector<Sample> &S, double MaxResidual);

/// A size band [Lo, Hi) in bytes.
struct Band {
  double Lo = 0, Hi = 0;
  std::string str() const;
};

/// The samples of \p S inside \p B.
std::vector<Sample> inBand(const std::vector<Sample> &S, const Band &B);

/// Bands from boundaries "4096,65536": [0,4096) [4096,65536) [65536,inf).
/// False with \p Error naming the bad entry.
bool parseBands(const std::string &Spec, std::vector<Band> &Out,
                std::string &Error);

} // namespace orrery::calibrate

#endif // ORRERY_TOOL_CALIBRATE_FIT_H
