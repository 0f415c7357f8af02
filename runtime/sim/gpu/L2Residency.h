//===- L2Residency.h - What a GPU's L2 holds between kernels ----*- C++ -*-===//
//
// A kernel whose inputs an earlier kernel on the same GPU touched, and which
// fit in L2 together with what came since, reads them at the L2's rate: the
// repeated small kernels of iterative codes run at L2 speed, above device
// memory's. Skeleton mode has no addresses below allocations, so the state
// is kept per buffer: each launch touches the buffers its pointer arguments
// point into (the kernel registry says which arguments are pointers), with
// its footprint split evenly between them, and an LRU list of those buffers
// stands for the cache. Copies and memsets do not enter it.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_SIM_L2RESIDENCY_H
#define ORRERY_SIM_L2RESIDENCY_H

#include <utility>
#include <vector>

namespace orrery::sim {

class L2Residency {
public:
  /// The share (0..1) of a launch's \p Footprint bytes, spread over
  /// \p Buffers (allocation bases, distinct), that an L2 of \p Capacity bytes
  /// still holds from earlier launches. 0 when the launch alone does not
  /// fit: streaming through more than the L2 evicts what it would reuse.
  double share(const std::vector<const void *> &Buffers, double Footprint,
               double Capacity) const;
  /// Records a launch: its buffers become the most recently used.
  void touch(const std::vector<const void *> &Buffers, double Footprint,
             double Capacity);

private:
  /// Most recently used first: a buffer and the bytes of it last touched.
  std::vector<std::pair<const void *, double>> Recent;
};

} // namespace orrery::sim

#endif
