//===- L2Residency.cpp - What a GPU's L2 holds between kernels ------------===//

#include "L2Residency.h"

#include <algorithm>

namespace orrery::sim {

double L2Residency::share(const std::vector<const void *> &Buffers,
                          double Footprint, double Capacity) const {
  if (Buffers.empty() || Footprint <= 0 || Capacity <= 0 ||
      Footprint > Capacity)
    return 0;
  double Each = Footprint / Buffers.size(), Held = 0;
  for (const void *B : Buffers) {
    double Newer = 0; // bytes used more recently than B's
    for (const auto &[Buffer, Bytes] : Recent) {
      if (Buffer == B) {
        // LRU: B's bytes are the ones after Newer, up to the capacity.
        Held += std::clamp(Capacity - Newer, 0.0, std::min(Bytes, Each));
        break;
      }
      Newer += Bytes;
      if (Newer >= Capacity)
        break;
    }
  }
  return Held / Footprint;
}

void L2Residency::touch(const std::vector<const void *> &Buffers,
                        double Footprint, double Capacity) {
  if (Buffers.empty() || Capacity <= 0)
    return;
  double Each = std::max(0.0, Footprint) / Buffers.size();
  Recent.erase(std::remove_if(Recent.begin(), Recent.end(),
                              [&](const auto &E) {
                                return std::find(Buffers.begin(), Buffers.end(),
                                                 E.first) != Buffers.end();
                              }),
               Recent.end());
  std::vector<std::pair<const void *, double>> Next;
  Next.reserve(Buffers.size() + Recent.size());
  for (const void *B : Buffers)
    Next.emplace_back(B, Each);
  // Keep what an L2 of Capacity can still hold, and a bounded list.
  double Bytes = Footprint;
  for (const auto &E : Recent) {
    if (Bytes >= Capacity || Next.size() >= 256)
      break;
    Next.push_back(E);
    Bytes += E.second;
  }
  Recent = std::move(Next);
}

} // namespace orrery::sim
