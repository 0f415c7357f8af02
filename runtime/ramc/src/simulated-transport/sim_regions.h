//===- sim_regions.h - memory registered with a simulated NIC --*- C++ -*-===//
//
// The regions one simulated endpoint registered: what a remote access names
// (a key and an address, as with FI_MR_VIRT_ADDR) and what the simulated NIC
// checks before touching memory. Keys are never reused, so an access to a
// released region (a destroyed window) fails instead of landing in whatever
// was registered next. Pure: no SimGrid.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_SIM_SIM_REGIONS_H
#define RAMC_SRC_SIM_SIM_REGIONS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>

namespace ramc::sim {

struct SimRegion {
  uint64_t Key = 0;
  uintptr_t Base = 0;
  size_t Len = 0;
  bool Counted = false; ///< remote writes counted (MR_COUNTER mode)
  bool Device = false;  ///< device memory: contents are not simulated
  uint64_t Count = 0;   ///< remote writes and atomics that arrived
};

class RegionTable {
public:
  /// Registers [Buf, Buf+Len) under a fresh key. The reference stays valid
  /// until remove().
  SimRegion &add(const void *Buf, size_t Len, bool Counted, bool Device);
  /// False if Key is not registered.
  bool remove(uint64_t Key);
  SimRegion *find(uint64_t Key);
  /// The region Key when [Addr, Addr+Len) lies inside it; otherwise
  /// nullptr and Why says what is wrong.
  SimRegion *check(uint64_t Key, uint64_t Addr, size_t Len, std::string &Why);
  size_t size() const { return ByKey.size(); }

private:
  std::unordered_map<uint64_t, SimRegion> ByKey;
  uint64_t NextKey = 1;
};

} // namespace ramc::sim

#endif
