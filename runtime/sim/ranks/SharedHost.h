//===- SharedHost.h - Large host allocations shared by all ranks -*- C++
//-*-===//
//
// SMPI runs every rank in one process, so a solver that allocates host arrays
// for the whole domain on each rank (reference solutions, initial conditions)
// would need ranks x size bytes of RAM. Host allocations of at least
// threshold() bytes (malloc, new, cudaMallocHost, ...) are instead mappings of
// one shared memory file: every such allocation, of every rank, aliases the
// same pages, and pages exist only once host code touches them (nothing is
// pre-faulted, unlike SMPI's shared malloc). Their contents are therefore
// meaningless: results computed on such arrays are not expected to be right
// in skeleton mode (docs/simulate.md).
//
// Thread-safe and usable before the simulation starts (static constructors)
// and after it ends: it needs nothing of SimGrid.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_SHAREDHOST_H
#define ORRERY_SIM_SHAREDHOST_H

#include <cstddef>

namespace orrery::sim::shared_host {

/// Allocations of at least this many bytes are shared
/// (ORRERY_SHARED_HOST_THRESHOLD, bytes; 0 turns sharing off).
std::size_t threshold();

/// A shared allocation of \p Size bytes, or nullptr when \p Size is below
/// the threshold or the mapping failed (callers fall back to the heap).
void *allocate(std::size_t Size);
/// Unmaps \p P if it is the base of a shared allocation; false otherwise.
bool release(void *P);
/// Size of the shared allocation based at \p P, or 0.
std::size_t sizeOf(const void *P);
/// True if \p P points into a shared allocation.
bool contains(const void *P);

struct Stats {
  unsigned long long Allocations = 0; ///< made so far
  unsigned long long Bytes = 0;       ///< their sizes, summed
  unsigned long long PeakLive = 0;    ///< largest sum of live sizes
};
Stats stats();

} // namespace orrery::sim::shared_host

#endif // ORRERY_SIM_SHAREDHOST_H
