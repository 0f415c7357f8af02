//===- DeviceMemory.h - Allocation registry of simulated GPUs ---*- C++ -*-===//
//
// Skeleton mode runs no kernel, so device memory needs no real pages: device
// allocations are SMPI shared memory (every allocation of every rank maps the
// same few physical pages, zero-filled), which lets a 2-core workstation hold
// thousands of GPUs' worth of arrays. The registry answers "is this pointer
// device memory, of which rank and GPU" for pointers into the middle of
// allocations too. All ranks share one address space, so one registry serves
// them all.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_DEVICEMEMORY_H
#define ORRERY_SIM_DEVICEMEMORY_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace orrery::sim {

enum class MemoryKind { Device, Pinned, Managed };

struct Allocation {
  std::uintptr_t Base = 0;
  std::size_t Size = 0;
  int Rank = 0;
  int Device = 0; ///< GPU index within the node (Device, Managed)
  MemoryKind Kind = MemoryKind::Device;
  bool Shared = false;     ///< backed by SMPI shared pages
  bool Piece = false;      ///< carved out of an arena
  bool Registered = false; ///< cudaHostRegister'ed user memory
};

class DeviceMemory {
public:
  static DeviceMemory &get();

  /// Allocates \p Size bytes; nullptr if out of address space.
  void *allocate(std::size_t Size, int Rank, int Device, MemoryKind Kind);
  /// Frees an allocation made here; false if \p P is not one's base.
  bool release(void *P);
  /// Records user memory registered with cudaHostRegister.
  void registerHost(void *P, std::size_t Size, int Rank);
  bool unregisterHost(void *P);

  /// The allocation containing \p P, or nullptr (plain host memory).
  const Allocation *find(const void *P) const;
  bool isDevice(const void *P) const {
    const Allocation *A = find(P);
    return A && A->Kind != MemoryKind::Pinned;
  }
  /// Device bytes a rank holds on a device (cudaMemGetInfo).
  std::size_t deviceBytes(int Rank, int Device) const;

private:
  void *allocateShared(std::size_t Bytes);
  void releaseShared(const Allocation &A);

  std::map<std::uintptr_t, Allocation> ByBase;
  /// Small shared allocations are carved out of arenas (one mapping each
  /// instead of one per allocation: thousands of ranks in one process run
  /// into vm.max_map_count otherwise); freed pieces are reused by size.
  std::uintptr_t ArenaNext = 0, ArenaEnd = 0;
  std::map<std::size_t, std::vector<std::uintptr_t>> FreePieces;
};

/// Shared allocations up to this size come from arenas.
constexpr std::size_t ArenaPieceLimit = 1 << 20;
/// Size of one arena.
constexpr std::size_t ArenaSize = 64 << 20;

/// Host allocations at most this large are private real memory, because
/// host code reads and writes pinned and managed memory; larger ones are
/// shared pages like device memory.
constexpr std::size_t PrivateHostLimit = 1 << 20;

} // namespace orrery::sim

#endif // ORRERY_SIM_DEVICEMEMORY_H
