//===- DeviceMemory.cpp - Allocation registry -----------------------------===//

#include "DeviceMemory.h"

#include <smpi/smpi.h>

#include <cstdlib>
#include <cstring>

namespace orrery::sim {

DeviceMemory &DeviceMemory::get() {
  static DeviceMemory M;
  return M;
}

void *DeviceMemory::allocate(std::size_t Size, int Rank, int Device,
                             MemoryKind Kind) {
  // Zero-byte allocations still get a distinct address.
  std::size_t Bytes = Size ? Size : 1;
  bool Shared = Kind == MemoryKind::Device || Bytes > PrivateHostLimit;
  void *P = nullptr;
  if (Shared)
    P = allocateShared(Bytes);
  else
    P = std::calloc(1, Bytes);
  if (!P)
    return nullptr;
  Allocation A;
  A.Base = reinterpret_cast<std::uintptr_t>(P);
  A.Size = Bytes;
  A.Rank = Rank;
  A.Device = Device;
  A.Kind = Kind;
  A.Shared = Shared;
  A.Piece = Shared && Bytes <= ArenaPieceLimit;
  ByBase[A.Base] = A;
  return P;
}

bool DeviceMemory::release(void *P) {
  auto It = ByBase.find(reinterpret_cast<std::uintptr_t>(P));
  if (It == ByBase.end() || It->second.Registered)
    return false;
  if (It->second.Shared)
    releaseShared(It->second);
  else
    std::free(P);
  ByBase.erase(It);
  return true;
}

/// cudaMalloc's alignment.
constexpr std::size_t Alignment = 256;

void *DeviceMemory::allocateShared(std::size_t Bytes) {
  if (Bytes > ArenaPieceLimit)
    return smpi_shared_malloc(Bytes, __FILE__, __LINE__);
  std::size_t Size = (Bytes + Alignment - 1) / Alignment * Alignment;
  auto &Free = FreePieces[Size];
  if (!Free.empty()) {
    std::uintptr_t P = Free.back();
    Free.pop_back();
    return reinterpret_cast<void *>(P);
  }
  if (ArenaNext + Size > ArenaEnd) {
    void *Arena = smpi_shared_malloc(ArenaSize, __FILE__, __LINE__);
    if (!Arena)
      return nullptr;
    ArenaNext = reinterpret_cast<std::uintptr_t>(Arena);
    ArenaEnd = ArenaNext + ArenaSize;
  }
  std::uintptr_t P = ArenaNext;
  ArenaNext += Size;
  return reinterpret_cast<void *>(P);
}

void DeviceMemory::releaseShared(const Allocation &A) {
  if (!A.Piece) {
    smpi_shared_free(reinterpret_cast<void *>(A.Base));
    return;
  }
  std::size_t Size = (A.Size + Alignment - 1) / Alignment * Alignment;
  FreePieces[Size].push_back(A.Base);
}

void DeviceMemory::registerHost(void *P, std::size_t Size, int Rank) {
  Allocation A;
  A.Base = reinterpret_cast<std::uintptr_t>(P);
  A.Size = Size ? Size : 1;
  A.Rank = Rank;
  A.Kind = MemoryKind::Pinned;
  A.Registered = true;
  ByBase[A.Base] = A;
}

bool DeviceMemory::unregisterHost(void *P) {
  auto It = ByBase.find(reinterpret_cast<std::uintptr_t>(P));
  if (It == ByBase.end() || !It->second.Registered)
    return false;
  ByBase.erase(It);
  return true;
}

const Allocation *DeviceMemory::find(const void *P) const {
  auto Addr = reinterpret_cast<std::uintptr_t>(P);
  auto It = ByBase.upper_bound(Addr);
  if (It == ByBase.begin())
    return nullptr;
  --It;
  const Allocation &A = It->second;
  return Addr - A.Base < A.Size ? &A : nullptr;
}

std::size_t DeviceMemory::deviceBytes(int Rank, int Device) const {
  std::size_t N = 0;
  for (const auto &KV : ByBase)
    if (KV.second.Rank == Rank && KV.second.Device == Device &&
        KV.second.Kind == MemoryKind::Device)
      N += KV.second.Size;
  return N;
}

} // namespace orrery::sim
