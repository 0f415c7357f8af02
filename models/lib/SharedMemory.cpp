//===- SharedMemory.cpp - Size bands of the shared-memory transport -------===//

#include "orrery/models/Machine.h"

#include <algorithm>

namespace orrery::models {

std::pair<double, double> SharedMemoryModel::at(double Bytes) const {
  std::pair<double, double> F{Latency.Value, Bandwidth.Value};
  for (const SharedMemoryBand &B : Bands)
    if (B.From.Value <= Bytes)
      F = {B.Latency.Value, B.Bandwidth.Value};
  return F;
}

double SharedMemoryModel::maxLatency() const {
  double L = Latency.Value;
  for (const SharedMemoryBand &B : Bands)
    L = std::max(L, B.Latency.Value);
  return L;
}

double SharedMemoryModel::maxBandwidth() const {
  double W = Bandwidth.Value;
  for (const SharedMemoryBand &B : Bands)
    W = std::max(W, B.Bandwidth.Value);
  return W;
}

double SharedMemoryModel::copySeconds(double Bytes) const {
  double W = maxBandwidth();
  return Bytes > 0 && W > 0 ? Bytes / W : 0;
}

} // namespace orrery::models
