//===- Occupancy.cpp - Resident blocks per SM -----------------------------===//
//
// The CUDA occupancy rules: a block's warps, registers (allocated per warp in
// units of RegisterAllocationUnit) and shared memory (in units of
// SharedMemoryAllocationUnit) must fit the SM's budgets; BlocksPerSm is the
// smallest of the four limits.
//
//===----------------------------------------------------------------------===//

#include "orrery/models/KernelModel.h"

#include <algorithm>
#include <cmath>

namespace orrery::models {
namespace {

double roundUp(double V, double Unit) {
  return Unit > 0 ? std::ceil(V / Unit) * Unit : V;
}

} // namespace

double sharedCapacityPerSm(const GpuParams &G, int CarveoutPercent,
                           double BlockBytes) {
  if (CarveoutPercent < 0)
    return G.SharedMemoryPerSm;
  // The configurations of compute capabilities 8.x and 9.0 (CUDA C++
  // Programming Guide, "Shared Memory" of each compute capability).
  const double Configs[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  double Want = std::min(100, CarveoutPercent) / 100.0 * G.SharedMemoryPerSm;
  for (double K : Configs) {
    double Bytes = K * 1024;
    if (Bytes > G.SharedMemoryPerSm)
      break;
    if (Bytes >= Want && Bytes >= BlockBytes)
      return Bytes;
  }
  return G.SharedMemoryPerSm;
}

Occupancy computeOccupancy(const GpuParams &G, const LaunchConfig &L) {
  Occupancy O;
  if (L.ThreadsPerBlock == 0 || L.ThreadsPerBlock > G.MaxThreadsPerBlock) {
    O.Limiter = "a block of " + std::to_string(L.ThreadsPerBlock) +
                " threads is not launchable (1.." +
                std::to_string(G.MaxThreadsPerBlock) + ")";
    return O;
  }
  if (L.MaxThreadsBound > 0 && L.ThreadsPerBlock > L.MaxThreadsBound) {
    O.Limiter = "a block of " + std::to_string(L.ThreadsPerBlock) +
                " threads exceeds the kernel's __launch_bounds__(" +
                std::to_string(L.MaxThreadsBound) +
                "): CUDA refuses the launch (too many resources requested)";
    return O;
  }
  if (L.RegistersPerThread > G.MaxRegistersPerThread) {
    O.Limiter = std::to_string(L.RegistersPerThread) +
                " registers per thread exceed the maximum of " +
                std::to_string(G.MaxRegistersPerThread);
    return O;
  }
  if (L.SharedBytesPerBlock > G.SharedMemoryPerBlock) {
    O.Limiter = std::to_string(L.SharedBytesPerBlock) +
                " bytes of shared memory per block exceed the maximum of " +
                std::to_string(static_cast<long>(G.SharedMemoryPerBlock));
    return O;
  }
  unsigned WarpsPerBlock = (L.ThreadsPerBlock + G.WarpSize - 1) / G.WarpSize;
  unsigned MaxWarps = G.MaxThreadsPerSm / G.WarpSize;

  struct Limit {
    const char *Name;
    unsigned Blocks;
  };
  Limit Limits[4] = {{"threads", MaxWarps / WarpsPerBlock},
                     {"blocks", G.MaxBlocksPerSm},
                     {"shared memory", ~0u},
                     {"registers", ~0u}};
  if (L.SharedBytesPerBlock > 0) {
    double Block = roundUp(L.SharedBytesPerBlock, G.SharedMemoryAllocationUnit);
    Limits[2].Blocks = static_cast<unsigned>(
        sharedCapacityPerSm(G, L.CarveoutPercent, Block) / Block);
  }
  if (L.RegistersPerThread > 0) {
    double PerWarp = roundUp(double(L.RegistersPerThread) * G.WarpSize,
                             G.RegisterAllocationUnit);
    unsigned Warps = static_cast<unsigned>(G.RegistersPerSm / PerWarp);
    Limits[3].Blocks = Warps / WarpsPerBlock;
  }
  const Limit *Min = &Limits[0];
  for (const Limit &Lim : Limits)
    if (Lim.Blocks < Min->Blocks)
      Min = &Lim;
  O.BlocksPerSm = Min->Blocks;
  O.Limiter = Min->Name;
  if (O.BlocksPerSm == 0) {
    O.Limiter =
        std::string("not even one block fits an SM (") + Min->Name + ")";
    return O;
  }
  O.WarpsPerSm = O.BlocksPerSm * WarpsPerBlock;
  O.Fraction = double(O.WarpsPerSm) / MaxWarps;
  return O;
}

} // namespace orrery::models
