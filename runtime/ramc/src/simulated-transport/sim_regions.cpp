//===- sim_regions.cpp - memory registered with a simulated NIC -----------===//
#include "sim_regions.h"

#include "error.h"

namespace ramc::sim {

SimRegion &RegionTable::add(const void *Buf, size_t Len, bool Counted,
                            bool Device) {
  uint64_t Key = NextKey++;
  SimRegion &R = ByKey[Key];
  R.Key = Key;
  R.Base = reinterpret_cast<uintptr_t>(Buf);
  R.Len = Len;
  R.Counted = Counted;
  R.Device = Device;
  return R;
}

bool RegionTable::remove(uint64_t Key) { return ByKey.erase(Key) != 0; }

SimRegion *RegionTable::find(uint64_t Key) {
  auto It = ByKey.find(Key);
  return It == ByKey.end() ? nullptr : &It->second;
}

SimRegion *RegionTable::check(uint64_t Key, uint64_t Addr, size_t Len,
                              std::string &Why) {
  SimRegion *R = find(Key);
  if (!R) {
    Why = format("no memory registered under key %llu (the window was "
                 "destroyed, or the key is stale)",
                 static_cast<unsigned long long>(Key));
    return nullptr;
  }
  if (Addr < R->Base || Addr - R->Base > R->Len ||
      Len > R->Len - (Addr - R->Base)) {
    Why = format("%zu bytes at address %#llx lie outside the registered "
                 "region (%zu bytes at %#llx, key %llu)",
                 Len, static_cast<unsigned long long>(Addr), R->Len,
                 static_cast<unsigned long long>(R->Base),
                 static_cast<unsigned long long>(Key));
    return nullptr;
  }
  return R;
}

} // namespace ramc::sim
