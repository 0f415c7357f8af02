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
    P = smpi_shared_malloc(Bytes, __FILE__, __LINE__);
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
  ByBase[A.Base] = A;
  return P;
}

bool DeviceMemory::release(void *P) {
  auto It = ByBase.find(reinterpret_cast<std::uintptr_t>(P));
  if (It == ByBase.end() || It->second.Registered)
    return false;
  if (It->second.Shared)
    smpi_shared_free(P);
  else
    std::free(P);
  ByBase.erase(It);
  return true;
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
