//===- KernelModel.cpp - Roofline with waves, and the single-rate baseline ===//
//
// Roofline, per wave of resident blocks (docs/cost-model.md, "Kernels"):
//   blocks that work   B = ceil(active threads / threads per block)
//   slots per wave     S = blocks per SM x SMs
//   a wave of b blocks puts k = ceil(b / SMs) blocks on its busiest SM;
//   its time is max(T_c / f_c, T_m / f_m) x (k x SMs / B), with
//   f_c = min(1, occ_k / occ_sat), occ_k = k x warps per block / max warps,
//   and f_m the share of the memory peak the wave's loads in flight reach
//   (Little's law): with n = k x threads per block x SMs resident threads,
//   each moving b_t bytes in a turnaround of t_block + r x latency (r rounds
//   of at most InFlightPerThread bytes of loads),
//     rate = 1 / sqrt(1 / peak^2 + 1 / (n b_t / turnaround)^2),
//   a smooth minimum: loaded latency grows as the memory nears its peak.
// Bytes the L2 serves (KernelWork::L2Share, data an earlier launch left
// there) move at the L2's bandwidth with its latency; loads a launch repeats
// (KernelWork::ReusedReads) come from the nearest level that holds their
// working set (memoryLevels), and every load passes the L1's pipeline. The
// latency in the turnaround is the bytes' average over the levels that
// serve them. Every kernel costs the
// device t_kernel (an empty kernel's time; a graph node's in graphs) on top.
// The L2 serialises atomics to one address, one every t_a
// (gpu.memory.same_address_atomic): a launch-wide address's chain is all of
// its atomics; a per-block address's chain is one block's atomics, and the
// blocks of a wave run theirs side by side. The device time is the larger of
// the waves' time and t_a x (grid chain + block chain x waves).
// Full waves reduce to T / min(1, occ / occ_sat); a partial last wave costs
// as much as its busiest SM (wave quantization).
//
//===----------------------------------------------------------------------===//

#include "orrery/models/KernelModel.h"

#include <algorithm>
#include <cmath>

namespace orrery::models {

namespace {

bool est(const Quantity &Q) { return Q.Kind == ValueKind::Estimate; }

/// Bytes of loads one thread keeps in flight before it needs their values:
/// the independent loads of one loop body (two 16-byte or four 8-byte
/// loads). A thread that loads more waits for more than one latency.
constexpr double InFlightPerThread = 32;

} // namespace

GpuParams GpuParams::fromMachine(const Machine &M) {
  const GpuModel &Gm = M.Gpu;
  GpuParams G;
  for (int P = 0; P < NumPrecisions; ++P) {
    const OpWeights &W = Gm.Weights[P];
    G.Peak[P] = Gm.Peak[P].Value;
    G.MatrixPeak[P] = Gm.MatrixPeak[P].Value;
    G.Estimates.MatrixPeak[P] = est(Gm.MatrixPeak[P]);
    G.Weights[P] = {W.Divide.Value, W.Sqrt.Value, W.Transcendental.Value};
    G.Estimates.Peak[P] = est(Gm.Peak[P]);
    G.Estimates.Weights[P] = {est(W.Divide), est(W.Sqrt),
                              est(W.Transcendental)};
  }
  // A value and whether it is an estimate, in one step.
  auto Take = [](const Quantity &Q, double &Value, bool &Estimate) {
    Value = Q.Value;
    Estimate = est(Q);
  };
  auto &E = G.Estimates;
  Take(Gm.PeakInt32, G.PeakInt, E.PeakInt);
  Take(Gm.PeakIssue, G.PeakIssue, E.PeakIssue);
  Take(Gm.ComputeEfficiency, G.ComputeEfficiency, E.ComputeEfficiency);
  Take(Gm.MemoryBandwidth, G.MemoryBandwidth, E.MemoryBandwidth);
  Take(Gm.MemoryEfficiency, G.MemoryEfficiency, E.MemoryEfficiency);
  Take(Gm.ComputeSaturationOccupancy, G.ComputeSaturationOccupancy,
       E.ComputeSaturation);
  Take(Gm.MemoryLatency, G.MemoryLatency, E.MemoryLatency);
  Take(Gm.L2Latency, G.L2Latency, E.L2Latency);
  Take(Gm.L2Bandwidth, G.L2Bandwidth, E.L2);
  G.L2Size = Gm.L2Size.Value;
  Take(Gm.L1Bandwidth, G.L1Bandwidth, E.L1);
  G.L1Size = Gm.L1Size.Value;
  G.L1Latency = Gm.L1Latency.Value;
  G.L1Unified = Gm.L1Unified.Value;
  E.L1 = E.L1 || est(Gm.L1Size) || est(Gm.L1Latency);
  Take(Gm.BlockOverhead, G.BlockOverhead, E.BlockOverhead);
  Take(Gm.Launch, G.Launch, E.Launch);
  Take(Gm.GraphLaunch, G.GraphLaunch, E.GraphLaunch);
  Take(Gm.Sync, G.Sync, E.Sync);
  Take(Gm.EmptyKernel, G.EmptyKernel, E.EmptyKernel);
  Take(Gm.GraphKernel, G.GraphKernel, E.GraphKernel);
  Take(Gm.KernelRate, G.KernelRate, E.KernelRate);
  Take(Gm.SameAddressAtomic, G.SameAddressAtomic, E.SameAddressAtomic);
  // Remote transfers are always charged as estimates: no flag needed.
  const NodeModel &Node = M.Node;
  G.PeerBandwidth =
      Node.Peer.Kind != PeerLinkKind::None && Node.Peer.Bandwidth.Value > 0
          ? Node.Peer.Bandwidth.Value
          : Node.Pcie.D2HBandwidth.Value;
  auto U = [](const Quantity &Q) { return static_cast<unsigned>(Q.Value); };
  G.SmCount = U(Gm.SmCount);
  G.WarpSize = U(Gm.WarpSize);
  G.MaxThreadsPerSm = U(Gm.MaxThreadsPerSm);
  G.MaxBlocksPerSm = U(Gm.MaxBlocksPerSm);
  G.MaxThreadsPerBlock = U(Gm.MaxThreadsPerBlock);
  G.RegistersPerSm = U(Gm.RegistersPerSm);
  G.MaxRegistersPerThread = U(Gm.MaxRegistersPerThread);
  G.RegisterAllocationUnit = U(Gm.RegisterAllocationUnit);
  G.SharedMemoryPerSm = Gm.SharedMemoryPerSm.Value;
  G.SharedMemoryPerBlock = Gm.SharedMemoryPerBlock.Value;
  G.SharedMemoryAllocationUnit = Gm.SharedMemoryAllocationUnit.Value;
  G.KernelRateIsBytes = Gm.KernelRate.Dim == Dimension::Bandwidth;
  return G;
}

double weightedFlops(const GpuParams &G, const KernelWork &W, Precision P) {
  int I = static_cast<int>(P);
  return W.Flops[I] + G.Weights[I][0] * W.Divides[I] +
         G.Weights[I][1] * W.Sqrts[I] + G.Weights[I][2] * W.Transcendentals[I];
}

namespace {

/// Device time of all arithmetic at full occupancy on every SM. FP32, FP64
/// and INT32 run on separate pipes (NVIDIA Volta and later: "simultaneous
/// execution of FP32 and INT32 operations", Volta GV100 whitepaper) that
/// share the schedulers' issue slots (one warp instruction per clock each):
/// with an issue rate, the time is the busiest pipe's or the issue's,
/// whichever is longer; without one, the pipes' times add up.
bool computeTime(const GpuParams &G, const KernelWork &W, double &T, bool &Est,
                 std::string &Error) {
  T = 0;
  Est = false;
  double Busiest = 0, Issued = 0;
  for (int P = 0; P < NumPrecisions; ++P) {
    double F = weightedFlops(G, W, static_cast<Precision>(P));
    if (F == 0)
      continue;
    Est = Est || G.Estimates.Peak[P] ||
          (W.Divides[P] > 0 && G.Estimates.Weights[P][0]) ||
          (W.Sqrts[P] > 0 && G.Estimates.Weights[P][1]) ||
          (W.Transcendentals[P] > 0 && G.Estimates.Weights[P][2]);
    if (G.Peak[P] <= 0) {
      Error = "the kernel does " +
              std::string(precisionName(static_cast<Precision>(P))) +
              " arithmetic but the GPU has no peak rate for it";
      return false;
    }
    double Pipe = F / (G.Peak[P] * G.ComputeEfficiency);
    T += Pipe;
    Busiest = std::max(Busiest, Pipe);
    // An FMA is one instruction for two flops; a division, square root or
    // transcendental an instruction sequence of about half its weight.
    Issued += (W.Flops[P] - W.Fmas[P]) + (F - W.Flops[P]) / 2;
  }
  // The tensor cores: a pipe per precision beside the vector ones (one warp
  // instruction does many FMAs: no issue slots to speak of). Without a
  // matrix peak the work runs at the vector peak.
  for (int P = 0; P < NumPrecisions; ++P) {
    double F = W.MatrixFlops[P];
    if (F == 0)
      continue;
    bool Tensor = G.MatrixPeak[P] > 0;
    double Rate = Tensor ? G.MatrixPeak[P] : G.Peak[P];
    if (Rate <= 0) {
      Error = "the kernel does " +
              std::string(precisionName(static_cast<Precision>(P))) +
              " matrix arithmetic but the GPU has no peak rate for it";
      return false;
    }
    double Pipe = F / (Rate * G.ComputeEfficiency);
    T += Pipe;
    Busiest = std::max(Busiest, Pipe);
    Est = Est || (Tensor ? G.Estimates.MatrixPeak[P] : G.Estimates.Peak[P]);
  }
  if (W.IntOps > 0) {
    if (G.PeakInt <= 0) {
      Error = "the kernel does integer arithmetic but the GPU has no int32 "
              "peak";
      return false;
    }
    double Pipe = W.IntOps / (G.PeakInt * G.ComputeEfficiency);
    T += Pipe;
    Busiest = std::max(Busiest, Pipe);
    Issued += W.IntOps;
    Est = Est || G.Estimates.PeakInt;
  }
  if (G.PeakIssue > 0 && T > 0) {
    T = std::max(Busiest, Issued / (G.PeakIssue * G.ComputeEfficiency));
    Est = Est || G.Estimates.PeakIssue;
  }
  Est = Est || (T > 0 && G.Estimates.ComputeEfficiency);
  return true;
}

void singleRate(const GpuParams &G, const KernelWork &W, KernelEstimate &E) {
  if (G.KernelRate <= 0) {
    E.Error = "the machine has no kernel rate R";
    return;
  }
  E.Time.add(CostCategory::Launch, G.Launch, G.Estimates.Launch);
  if (G.KernelRateIsBytes) {
    E.MemoryTime = (W.BytesRead + W.BytesWritten) / G.KernelRate;
    E.Time.add(CostCategory::Memory, E.MemoryTime, G.Estimates.KernelRate);
  } else {
    double F = W.IntOps;
    bool WeightEst = false;
    for (int P = 0; P < NumPrecisions; ++P) {
      F += weightedFlops(G, W, static_cast<Precision>(P)) + W.MatrixFlops[P];
      WeightEst = WeightEst ||
                  (W.Divides[P] > 0 && G.Estimates.Weights[P][0]) ||
                  (W.Sqrts[P] > 0 && G.Estimates.Weights[P][1]) ||
                  (W.Transcendentals[P] > 0 && G.Estimates.Weights[P][2]);
    }
    E.ComputeTime = F / G.KernelRate;
    E.Time.add(CostCategory::Compute, E.ComputeTime,
               G.Estimates.KernelRate || WeightEst);
  }
  E.Time.add(CostCategory::Sync, G.Sync, G.Estimates.Sync);
}

} // namespace

double dramBytes(double Requested, double Footprint) {
  return Footprint >= 0 ? Footprint : Requested;
}

double cacheHitShare(double WorkingSet, double Capacity, Replacement Policy) {
  if (Capacity <= 0)
    return 0;
  if (WorkingSet <= Capacity)
    return 1;
  if (Policy == Replacement::LeastRecentlyUsed)
    return 0;
  // Iterating from 0 climbs monotonically to the stable (lower) root.
  double R = WorkingSet / Capacity, H = 0;
  for (int I = 0; I < 200; ++I) {
    double Next = std::exp(-R * (1 - H));
    if (std::fabs(Next - H) < 1e-9)
      return Next;
    H = Next;
  }
  return H;
}

KernelWork kernelWork(const ThreadCounts &C) {
  KernelWork W;
  double A = C.active_threads;
  auto Set = [&](Precision P, double Add, double Mul, double Fma, double Div,
                 double Sqrt, double Transc) {
    int I = static_cast<int>(P);
    W.Flops[I] = A * (Add + Mul + 2 * Fma);
    W.Fmas[I] = A * Fma;
    W.Divides[I] = A * Div;
    W.Sqrts[I] = A * Sqrt;
    W.Transcendentals[I] = A * Transc;
  };
  Set(Precision::FP32, C.fp32_add, C.fp32_mul, C.fp32_fma, C.fp32_div,
      C.fp32_sqrt, C.fp32_transc);
  Set(Precision::FP64, C.fp64_add, C.fp64_mul, C.fp64_fma, C.fp64_div,
      C.fp64_sqrt, C.fp64_transc);
  W.MatrixFlops[static_cast<int>(Precision::FP64)] = 2 * A * C.fp64_mma;
  W.MatrixFlops[static_cast<int>(Precision::FP32)] = 2 * A * C.fp32_mma;
  W.MatrixFlops[static_cast<int>(Precision::FP16)] = 2 * A * C.fp16_mma;
  W.IntOps = A * C.int_ops;
  W.BytesRead = dramBytes(A * C.load_bytes, C.load_footprint);
  W.BytesWritten = dramBytes(A * C.store_bytes, C.store_footprint);
  if (C.load_footprint >= 0)
    W.ReusedReads = std::max(0.0, A * C.load_bytes - C.load_footprint);
  // Loads with neither count are hints from before the counts (or written
  // by hand, zero-initialised): the requested bytes stand in.
  if (C.l1_load_bytes > 0)
    W.L1Loads = A * C.l1_load_bytes;
  if (C.load_register_bytes > 0)
    W.LoadRegisterBytes = A * C.load_register_bytes;
  W.BlockLoadFootprint = C.block_load_footprint;
  W.DependentLoads = A * C.dependent_loads;
  W.BytesInFlight = C.bytes_in_flight;
  W.ActiveThreads = A;
  W.GridSameAddressAtomics = A * C.grid_same_address_atomics;
  W.BlockSameAddressAtomics =
      A * std::max(0.0, C.same_address_atomics - C.grid_same_address_atomics);
  W.RemoteBytes = A * C.remote_bytes;
  return W;
}

namespace {

/// Where a launch's bytes come from, and the time they take at full
/// concurrency.
struct MemoryLevels {
  double L1Bytes = 0, L2Bytes = 0, DramBytes = 0;
  /// The loads among them (stores are not waited for).
  double L1Loads = 0, L2Loads = 0, DramLoads = 0;
  double Time = 0;    ///< max(L1 pipeline, device memory + L2 hits)
  double Latency = 0; ///< a load's latency, averaged over the bytes served
  bool Estimate = false, LatencyEstimate = false;
};

/// The L1 capacity a launch's data sees: what the shared-memory carveout
/// the driver sets for its resident blocks (the kernel's preferred carveout,
/// else the smallest configuration that holds them) leaves of the SRAM the
/// two divide, at most the L1 a kernel without shared memory sees.
double l1Capacity(const GpuParams &G, const LaunchConfig &L,
                  const Occupancy &Occ) {
  double Used = double(Occ.BlocksPerSm) * L.SharedBytesPerBlock;
  if (G.L1Size <= 0 || (Used <= 0 && L.CarveoutPercent < 0))
    return G.L1Size;
  int Percent = L.CarveoutPercent;
  if (Percent < 0)
    Percent =
        G.SharedMemoryPerSm > 0
            ? static_cast<int>(std::ceil(100 * Used / G.SharedMemoryPerSm))
            : 0;
  double Carveout =
      sharedCapacityPerSm(G, std::min(Percent, 100), L.SharedBytesPerBlock);
  return std::clamp(std::max(G.L1Unified, G.L1Size) - Carveout, 0.0, G.L1Size);
}

/// The bytes each level serves: what an earlier launch left in L2
/// (KernelWork::L2Share) from there, the rest of the footprint from device
/// memory; re-reads from the L1 where one SM's working set (its resident
/// blocks' distinct loads) fits it, else from the L2 where the launch's
/// footprint fits that, else from device memory (cacheHitShare: the L1
/// least-recently-used, the L2 random past its capacity). Every load passes the
/// L1 pipeline; device memory and L2 hits share the way to the SMs.
MemoryLevels memoryLevels(const GpuParams &G, const KernelWork &W,
                          const LaunchConfig &L, const Occupancy &Occ) {
  MemoryLevels M;
  double Unique = W.BytesRead + W.BytesWritten;
  double Reuse = W.ReusedReads;
  bool HasL2 = G.L2Bandwidth > 0;
  double S = HasL2 ? std::clamp(W.L2Share, 0.0, 1.0) : 0;
  double H1 = 0, H2 = 0;
  if (Reuse > 0) {
    // The blocks resident on one SM at once: its share of a small grid.
    double Resident = std::min<double>(Occ.BlocksPerSm,
                                       std::ceil(double(L.Blocks) / G.SmCount));
    double WorkingSet =
        W.BlockLoadFootprint >= 0
            ? std::min(W.BytesRead, W.BlockLoadFootprint * Resident)
            : W.BytesRead;
    // The L1's sweeps drop off at its capacity; the L2, its lines hashed
    // over many slices, keeps some past its own.
    if (G.L1Bandwidth > 0)
      H1 = cacheHitShare(WorkingSet, l1Capacity(G, L, Occ),
                         Replacement::LeastRecentlyUsed);
    if (HasL2)
      H2 = cacheHitShare(Unique, G.L2Size, Replacement::Random);
  }
  M.L1Loads = M.L1Bytes = Reuse * H1;
  M.L2Bytes = S * Unique + Reuse * (1 - H1) * H2;
  M.DramBytes = (1 - S) * Unique + Reuse * (1 - H1) * (1 - H2);
  M.L2Loads = S * W.BytesRead + Reuse * (1 - H1) * H2;
  M.DramLoads = (1 - S) * W.BytesRead + Reuse * (1 - H1) * (1 - H2);
  double Behind = M.DramBytes / (G.MemoryBandwidth * G.MemoryEfficiency) +
                  (M.L2Bytes > 0 ? M.L2Bytes / G.L2Bandwidth : 0);
  // Every load passes the L1's data stage: its wavefronts where the
  // analysis counted them (bank conflicts, loads spread over many lines),
  // else the requested bytes.
  double L1Read = W.L1Loads >= 0 ? W.L1Loads : W.BytesRead + Reuse;
  double Pipeline = G.L1Bandwidth > 0 ? L1Read / G.L1Bandwidth : 0;
  M.Time = std::max(Behind, Pipeline);
  const auto &E = G.Estimates;
  M.Estimate = (M.DramBytes > 0 && (E.MemoryBandwidth || E.MemoryEfficiency)) ||
               (M.L2Bytes > 0 && E.L2) ||
               ((M.L1Bytes > 0 || Pipeline > Behind) && E.L1);
  double Served = M.L1Bytes + M.L2Bytes + M.DramBytes;
  if (Served > 0)
    M.Latency = (M.L1Bytes * G.L1Latency + M.L2Bytes * G.L2Latency +
                 M.DramBytes * G.MemoryLatency) /
                Served;
  M.LatencyEstimate = (M.DramBytes > 0 && E.MemoryLatency) ||
                      (M.L2Bytes > 0 && E.L2Latency) || (M.L1Bytes > 0 && E.L1);
  return M;
}

/// The time one thread waits for its loads: rounds of at most its bytes in
/// flight (InFlightPerThread, or what an unrolled loop issues), or one
/// round per link of a chain of dependent loads. A round waits for its
/// slowest load: the rounds that reach device memory first, then the L2's,
/// then the L1's. A chain's links each go to a level by its share of the
/// bytes.
double loadWaits(const GpuParams &G, const KernelWork &W, const MemoryLevels &M,
                 double Active, double &Rounds) {
  // In flight are the loads' registers, not the sectors they touch: a
  // strided load fetches more than it keeps. Rounds count register bytes;
  // the levels' shares of them follow the requested bytes each serves.
  double Requested = W.BytesRead + W.ReusedReads;
  double Kept = W.LoadRegisterBytes >= 0 ? W.LoadRegisterBytes : Requested;
  double Scale = Requested > 0 ? Kept / Requested : 0;
  double Loads = Kept / Active;
  double InFlight = std::max(InFlightPerThread, W.BytesInFlight);
  Rounds = Loads > 0 ? std::ceil(Loads / InFlight) : 0;
  double Chain = W.DependentLoads / Active;
  if (Chain >= Rounds) {
    Rounds = Chain;
    return Rounds * M.Latency;
  }
  double Dram =
      std::min(Rounds, std::ceil(Scale * M.DramLoads / Active / InFlight));
  double L2 =
      std::min(Rounds - Dram, std::ceil(Scale * M.L2Loads / Active / InFlight));
  return Dram * G.MemoryLatency + L2 * G.L2Latency +
         (Rounds - Dram - L2) * (G.L1Latency > 0 ? G.L1Latency : G.L2Latency);
}

} // namespace

KernelEstimate kernelTime(const GpuParams &G, const KernelWork &W,
                          const LaunchConfig &L, KernelModelKind Kind) {
  KernelEstimate E;
  E.Occ = computeOccupancy(G, L);
  if (!E.Occ.valid()) {
    E.Error = E.Occ.Limiter;
    return E;
  }
  if (Kind == KernelModelKind::SingleRate) {
    singleRate(G, W, E);
    return E;
  }

  double Tc = 0;
  bool TcEst = false;
  if (!computeTime(G, W, Tc, TcEst, E.Error))
    return E;
  double Bytes = W.BytesRead + W.BytesWritten + W.ReusedReads;
  if (Bytes > 0 && G.MemoryBandwidth <= 0) {
    E.Error = "the kernel moves memory but the GPU has no memory bandwidth";
    return E;
  }
  MemoryLevels M = memoryLevels(G, W, L, E.Occ);
  double Tm = M.Time;
  bool TmEst = M.Estimate;
  E.L1Bytes = M.L1Bytes;
  E.L2Bytes = M.L2Bytes;
  E.DramBytes = M.DramBytes;

  double Launched = double(L.Blocks) * L.ThreadsPerBlock;
  double Active =
      W.ActiveThreads < 0 ? Launched : std::min(W.ActiveThreads, Launched);
  std::uint64_t B =
      static_cast<std::uint64_t>(std::ceil(Active / L.ThreadsPerBlock));
  E.WorkingBlocks = B;

  // Little's law: one thread's bytes and the turnaround they take.
  double ThreadBytes = Active > 0 ? Bytes / Active : 0;
  double Turnaround = 0;
  bool TurnaroundEst = G.Estimates.BlockOverhead;
  if (ThreadBytes > 0) {
    double Rounds = 0;
    Turnaround = G.BlockOverhead + loadWaits(G, W, M, Active, Rounds);
    TurnaroundEst = TurnaroundEst || (Rounds > 0 && M.LatencyEstimate);
  }
  // The share of the memory peak that \p Threads resident threads reach.
  auto MemoryShare = [&](double Threads) {
    if (Turnaround <= 0 || Tm <= 0)
      return 1.0;
    double Peak = Bytes / Tm;
    double Reach = Threads * ThreadBytes / Turnaround;
    return 1 / std::sqrt(1 + (Peak / Reach) * (Peak / Reach));
  };

  double Body = 0;
  Cost Device; // compute and memory time of the waves
  std::uint64_t Slots = std::uint64_t(E.Occ.BlocksPerSm) * G.SmCount;
  std::uint64_t Full = B / Slots, Rest = B % Slots;
  if (B > 0 && (Tc > 0 || Tm > 0)) {
    E.Waves = Full + (Rest ? 1 : 0);
    unsigned WarpsPerBlock = (L.ThreadsPerBlock + G.WarpSize - 1) / G.WarpSize;
    double MaxWarps = double(G.MaxThreadsPerSm / G.WarpSize);
    auto Wave = [&](std::uint64_t Blocks, std::uint64_t Count) {
      if (Blocks == 0 || Count == 0)
        return;
      double K = std::ceil(double(Blocks) / G.SmCount);
      double Occ = K * WarpsPerBlock / MaxWarps;
      double Share = K * G.SmCount / double(B);
      double Fc = std::min(1.0, Occ / G.ComputeSaturationOccupancy);
      double Fm = MemoryShare(K * L.ThreadsPerBlock * G.SmCount);
      double C = Tc * Share / Fc, M = Tm * Share / Fm;
      if (C >= M) {
        E.ComputeTime += C * Count;
        Device.add(CostCategory::Compute, C * Count,
                   TcEst || (Fc < 1 && G.Estimates.ComputeSaturation));
      } else {
        E.MemoryTime += M * Count;
        Device.add(CostCategory::Memory, M * Count,
                   TmEst || (Fm < 0.99 && TurnaroundEst));
      }
    };
    Wave(Slots, Full);
    Wave(Rest, 1);
    Body = E.ComputeTime + E.MemoryTime;
  }
  if (B > 0 &&
      (W.GridSameAddressAtomics > 0 || W.BlockSameAddressAtomics > 0)) {
    double Waves = double(Full + (Rest ? 1 : 0));
    E.AtomicTime =
        G.SameAddressAtomic *
        (W.GridSameAddressAtomics + W.BlockSameAddressAtomics / B * Waves);
    // The chain overlaps the waves' streaming: only its excess is charged.
    if (E.AtomicTime > Body) {
      Device.add(CostCategory::Memory, E.AtomicTime - Body,
                 G.Estimates.SameAddressAtomic);
      Body = E.AtomicTime;
    }
  }
  // Device-initiated NVSHMEM transfers leave over the peer links while the
  // kernel works: like the atomics' chain, only their excess is charged,
  // and always as an estimate (no wait for a peer is modelled).
  if (W.RemoteBytes > 0 && G.PeerBandwidth > 0) {
    E.RemoteTime = W.RemoteBytes / G.PeerBandwidth;
    if (E.RemoteTime > Body) {
      Device.add(CostCategory::Memory, E.RemoteTime - Body, true);
      Body = E.RemoteTime;
    }
  }
  E.Time.add(CostCategory::Launch, G.Launch, G.Estimates.Launch);
  E.Time += Device;
  // The launch pipeline: every kernel costs the device an empty kernel's
  // time (fetching the launch, distributing blocks, draining) besides its
  // work; a graph's nodes, prepared ahead, cost less.
  if (L.InGraph)
    E.Time.add(CostCategory::Launch, G.GraphKernel, G.Estimates.GraphKernel);
  else
    E.Time.add(CostCategory::Launch, G.EmptyKernel, G.Estimates.EmptyKernel);
  return E;
}

LaunchConfig withKernelResources(const ThreadCounts &C, LaunchConfig L) {
  L.SharedBytesPerBlock = static_cast<std::uint32_t>(
      C.shared_static_bytes + static_cast<double>(L.SharedBytesPerBlock));
  if (C.registers_per_thread > 0)
    L.RegistersPerThread = static_cast<std::uint32_t>(C.registers_per_thread);
  L.MaxThreadsBound = static_cast<std::uint32_t>(C.launch_bounds_max_threads);
  return L;
}

LaunchPrediction predictLaunch(const GpuParams &G, const ThreadCounts &C,
                               LaunchConfig L, double L2Share) {
  LaunchPrediction P;
  L = withKernelResources(C, L);
  P.Work = kernelWork(C);
  P.Work.L2Share = L2Share;
  P.Roofline = kernelTime(G, P.Work, L, KernelModelKind::Roofline);
  P.SingleRate = kernelTime(G, P.Work, L, KernelModelKind::SingleRate);
  for (int I = 0; I < NumPrecisions; ++I)
    P.Flops += P.Work.Flops[I] + P.Work.MatrixFlops[I];
  P.Bytes = P.Work.BytesRead + P.Work.BytesWritten;
  const KernelEstimate &R = P.Roofline;
  double Device =
      std::max({R.ComputeTime, R.MemoryTime, R.AtomicTime, R.RemoteTime});
  double Overhead = L.InGraph ? G.GraphKernel : G.EmptyKernel;
  P.Bound = Device < Overhead ? "latency"
            : R.RemoteTime > R.ComputeTime + R.MemoryTime &&
                    R.RemoteTime >= R.AtomicTime
                ? "remote"
            : R.AtomicTime > R.ComputeTime + R.MemoryTime ? "atomics"
            : R.ComputeTime >= R.MemoryTime               ? "compute"
                                                          : "memory";
  return P;
}

} // namespace orrery::models
