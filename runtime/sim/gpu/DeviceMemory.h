//===- DeviceMemory.h - Allocation registry of simulated GPUs ---*- C++ -*-===//
//
// Skeleton mode runs no kernel, so device memory needs no real pages: device
// allocations are address space only (anonymous, not reserved, never touched
// by Orrery), which lets a 2-core workstation hold thousands of GPUs' worth
// of arrays. SMPI does not copy message payloads out of or into device memory
// (mpi/PayloadCopies.h), so they stay untouched. The registry answers "is this
// pointer device memory, of which rank and GPU" for pointers into the middle
// of allocations too. All ranks share one address space, so one registry
// serves them all.
//
// (SMPI's own shared malloc is no fit: it pre-faults every page it maps, so
// page tables and RSS grow with the simulated memory.)
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_DEVICEMEMORY_H
#define ORRERY_SIM_DEVICEMEMORY_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace orrery::sim {

enum class MemoryKind { Device, Pinned, Managed };

struct Allocation {
  std::uintptr_t Base = 0;
  std::size_t Size = 0;
  int Rank = 0;
  int Device = 0; ///< GPU index within the node (Device, Managed)
  MemoryKind Kind = MemoryKind::Device;
  bool Lazy = false;       ///< an address-space-only mapping
  bool Shared = false;     ///< a host block shared by all ranks (SharedHost.h)
  bool Registered = false; ///< cudaHostRegister'ed user memory
  bool External = false;   ///< real memory of twin mode's executor
};

class DeviceMemory {
public:
  static DeviceMemory &get();

  /// Allocates \p Size bytes; nullptr if out of address space.
  void *allocate(std::size_t Size, int Rank, int Device, MemoryKind Kind);
  /// Frees an allocation made here; false if \p P is not one's base.
  bool release(void *P);
  /// Records memory allocated by someone else (twin mode's real GPU
  /// memory); release() then only forgets it.
  void adopt(void *P, std::size_t Size, int Rank, int Device, MemoryKind Kind);
  /// Records user memory registered with cudaHostRegister.
  void registerHost(void *P, std::size_t Size, int Rank);
  bool unregisterHost(void *P);

  /// The allocation containing \p P, or nullptr (plain host memory).
  const Allocation *find(const void *P) const;
  bool isDevice(const void *P) const { return isDevice(find(P)); }
  static bool isDevice(const Allocation *A) {
    return A && A->Kind != MemoryKind::Pinned;
  }
  /// find() without remembering the answer, for pointers asked about once
  /// (SMPI's temporary copy of each eager payload), which would only evict
  /// the memo's entries for the pointers ranks use over and over.
  const Allocation *findOnce(const void *P) const {
    return search(reinterpret_cast<std::uintptr_t>(P));
  }
  /// Device bytes a rank holds on a device (cudaMemGetInfo).
  std::size_t deviceBytes(int Rank, int Device) const;

private:
  const Allocation *search(std::uintptr_t Addr) const;
  /// Adds or removes a registry entry, keeping DeviceBytes in step.
  void insert(const Allocation &A);
  void erase(std::map<std::uintptr_t, Allocation>::iterator It);
  void count(const Allocation &A, bool Add);
  /// The registry changed: answers remembered by find() are stale.
  void changed() { ++Generation; }

  std::map<std::uintptr_t, Allocation> ByBase;
  /// Device bytes held per (rank, device): cudaMalloc checks the capacity
  /// on every call, and a walk of the registry there made starting N ranks
  /// cost N^2 (16,384 ranks: minutes).
  std::map<std::pair<int, int>, std::size_t> DeviceBytes;
  /// find() is asked about the same few pointers of each rank over and over
  /// (every MPI call and copy); with thousands of ranks a search of the tree
  /// costs a cache miss per level. A memo of its answers, valid while
  /// Generation is unchanged (any allocation or release bumps it; tree
  /// nodes do not move while they live). Two ways per set, the most
  /// recently used first: direct-mapped, the pointers of 65,536 ranks
  /// (about ten each, over half as many as its slots) collided, and the
  /// tree search still took 3 % of such a run.
  struct Memo {
    std::uintptr_t Addr = 0;
    std::uint64_t Generation = 0;
    const Allocation *Found = nullptr;
  };
  /// Slots: a power of two, at least four per registry entry (every rank's
  /// few pointers fit), from 4,096 up to 2^20 (24 MiB).
  static constexpr std::size_t MinMemoSlots = 4096, MaxMemoSlots = 1 << 20;
  mutable std::vector<Memo> Memos = std::vector<Memo>(MinMemoSlots);
  std::uint64_t Generation = 1;
};

/// Host allocations at most this large are private zeroed memory from the
/// C heap; larger pinned and managed ones are lazy mappings like device
/// memory (zero-filled, pages appear as host code touches them), and those
/// above the shared-host threshold share their pages with every rank's.
constexpr std::size_t HeapHostLimit = 1 << 20;

} // namespace orrery::sim

#endif // ORRERY_SIM_DEVICEMEMORY_H
