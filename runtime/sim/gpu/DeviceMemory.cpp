//===- DeviceMemory.cpp - Allocation registry -----------------------------===//

#include "DeviceMemory.h"
#include "ranks/SharedHost.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace orrery::sim {

DeviceMemory &DeviceMemory::get() {
  static DeviceMemory M;
  return M;
}

void *DeviceMemory::allocate(std::size_t Size, int Rank, int Device,
                             MemoryKind Kind) {
  // Zero-byte allocations still get a distinct address.
  std::size_t Bytes = Size ? Size : 1;
  bool Lazy = Kind == MemoryKind::Device || Bytes > HeapHostLimit;
  void *P = nullptr;
  bool Shared = false;
  if (Kind != MemoryKind::Device && (P = shared_host::allocate(Bytes))) {
    Shared = true;
    Lazy = false;
  } else if (Lazy) {
    // Adjacent anonymous mappings merge into one, so thousands of ranks'
    // allocations stay well below vm.max_map_count.
    P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P == MAP_FAILED)
      return nullptr;
  } else {
    P = std::calloc(1, Bytes);
    if (!P)
      return nullptr;
  }
  Allocation A;
  A.Base = reinterpret_cast<std::uintptr_t>(P);
  A.Size = Bytes;
  A.Rank = Rank;
  A.Device = Device;
  A.Kind = Kind;
  A.Lazy = Lazy;
  A.Shared = Shared;
  insert(A);
  return P;
}

bool DeviceMemory::release(void *P) {
  auto It = ByBase.find(reinterpret_cast<std::uintptr_t>(P));
  if (It == ByBase.end() || It->second.Registered)
    return false;
  if (It->second.External)
    ; // its owner frees it
  else if (It->second.Shared)
    shared_host::release(P);
  else if (It->second.Lazy)
    munmap(P, It->second.Size);
  else
    std::free(P);
  erase(It);
  return true;
}

void DeviceMemory::adopt(void *P, std::size_t Size, int Rank, int Device,
                         MemoryKind Kind) {
  Allocation A;
  A.Base = reinterpret_cast<std::uintptr_t>(P);
  A.Size = Size ? Size : 1;
  A.Rank = Rank;
  A.Device = Device;
  A.Kind = Kind;
  A.External = true;
  insert(A);
}

void DeviceMemory::registerHost(void *P, std::size_t Size, int Rank) {
  Allocation A;
  A.Base = reinterpret_cast<std::uintptr_t>(P);
  A.Size = Size ? Size : 1;
  A.Rank = Rank;
  A.Kind = MemoryKind::Pinned;
  A.Registered = true;
  insert(A);
}

bool DeviceMemory::unregisterHost(void *P) {
  auto It = ByBase.find(reinterpret_cast<std::uintptr_t>(P));
  if (It == ByBase.end() || !It->second.Registered)
    return false;
  erase(It);
  return true;
}

const Allocation *DeviceMemory::find(const void *P) const {
  auto Addr = reinterpret_cast<std::uintptr_t>(P);
  std::size_t Set = ((Addr >> 3) ^ (Addr >> 15)) & (Memos.size() / 2 - 1);
  Memo *Way = &Memos[2 * Set];
  if (Way[0].Generation == Generation && Way[0].Addr == Addr)
    return Way[0].Found;
  if (Way[1].Generation == Generation && Way[1].Addr == Addr) {
    std::swap(Way[0], Way[1]); // most recently used first
    return Way[0].Found;
  }
  const Allocation *Found = search(Addr);
  Way[1] = Way[0];
  Way[0] = {Addr, Generation, Found};
  return Found;
}

const Allocation *DeviceMemory::search(std::uintptr_t Addr) const {
  auto It = ByBase.upper_bound(Addr);
  if (It == ByBase.begin())
    return nullptr;
  --It;
  const Allocation &A = It->second;
  return Addr - A.Base < A.Size ? &A : nullptr;
}

std::size_t DeviceMemory::deviceBytes(int Rank, int Device) const {
  auto It = DeviceBytes.find({Rank, Device});
  return It == DeviceBytes.end() ? 0 : It->second;
}

void DeviceMemory::count(const Allocation &A, bool Add) {
  if (A.Kind != MemoryKind::Device)
    return;
  std::size_t &Held = DeviceBytes[{A.Rank, A.Device}];
  Held = Add ? Held + A.Size : Held - std::min(Held, A.Size);
}

void DeviceMemory::insert(const Allocation &A) {
  auto It = ByBase.find(A.Base);
  if (It != ByBase.end()) {
    count(It->second, false);
    It->second = A;
  } else {
    ByBase.emplace(A.Base, A);
  }
  count(A, true);
  changed();
  // With thousands of ranks a fixed memo held a fraction of the pointers in
  // use: every lookup missed (4 % of a 16,384-GPU run in the tree search).
  if (ByBase.size() * 4 > Memos.size() && Memos.size() < MaxMemoSlots)
    Memos.assign(Memos.size() * 2, Memo{});
}

void DeviceMemory::erase(std::map<std::uintptr_t, Allocation>::iterator It) {
  count(It->second, false);
  ByBase.erase(It);
  changed();
}

} // namespace orrery::sim
