//===- KernelModel.h - Kernel time from evaluated counts --------*- C++ -*-===//
//
// Kernel duration from the totals of one launch. The kernel-cost analysis
// emits per-thread counts as expressions of the kernel's parameters and launch
// geometry; the runtime evaluates them at the launch and fills KernelWork.
//
// Two models (docs/cost-model.md):
//  - Roofline: t_launch + t_kernel + sum over waves of max(T_compute,
//    T_memory), with occupancy, memory concurrency by Little's law, an L2
//    level and wave quantization.
//  - SingleRate: the paper's baseline, t_launch + W / R + t_sync.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_KERNELMODEL_H
#define ORRERY_MODELS_KERNELMODEL_H

#include "orrery/models/Cost.h"
#include "orrery/models/KernelCounts.h"
#include "orrery/models/Machine.h"

#include <array>
#include <cstdint>
#include <string>

namespace orrery::models {

/// Totals over all threads of one launch (evaluated cost hint).
struct KernelWork {
  /// Additions, multiplications and comparisons count 1, an FMA counts 2.
  std::array<double, NumPrecisions> Flops{};
  /// The FMAs among them (each two flops, one instruction).
  std::array<double, NumPrecisions> Fmas{};
  std::array<double, NumPrecisions> Divides{};
  std::array<double, NumPrecisions> Sqrts{};
  std::array<double, NumPrecisions> Transcendentals{}; ///< exp, log, sin, ...
  /// Flops of matrix FMAs on the tensor cores (two a matrix FMA).
  std::array<double, NumPrecisions> MatrixFlops{};
  double IntOps = 0;
  double BytesRead = 0;    ///< global memory
  double BytesWritten = 0; ///< global memory
  /// Share (0..1) of the global-memory bytes the L2 serves: data an earlier
  /// launch on the GPU left there (set by the runtime's L2 state).
  double L2Share = 0;
  /// Loads requested beyond the load footprint: data the launch reads again,
  /// which the L1, the L2 or device memory serves by the working set's size
  /// (0 when the footprint is not known).
  double ReusedReads = 0;
  /// Bytes the L1's data stage reads for all loads (128-byte wavefronts per
  /// warp-wide load); below 0: not known, the requested loads stand in.
  double L1Loads = -1;
  /// Element bytes the loads bring into registers (what threads keep in
  /// flight); below 0: not known, the requested loads stand in.
  double LoadRegisterBytes = -1;
  /// Distinct bytes one block loads (< 0: not known); with the blocks
  /// resident on an SM, the working set its L1 must hold.
  double BlockLoadFootprint = -1;
  /// Loads whose address an earlier load returned (pointer chasing): each
  /// waits a whole latency, however few bytes are in flight.
  double DependentLoads = 0;
  /// Bytes of loads one thread issues before it waits (0: the model's
  /// default, InFlightPerThread).
  double BytesInFlight = 0;
  /// Threads that pass the kernel's guards; < 0 means all launched threads.
  double ActiveThreads = -1;
  /// Atomics to one address for the whole launch, and to one address per
  /// block: the L2 serialises each address's atomics.
  double GridSameAddressAtomics = 0, BlockSameAddressAtomics = 0;
  /// Bytes the kernel's device-initiated NVSHMEM calls move between GPUs.
  double RemoteBytes = 0;
};

struct LaunchConfig {
  std::uint64_t Blocks = 1;
  std::uint32_t ThreadsPerBlock = 1;
  std::uint32_t SharedBytesPerBlock = 0; ///< static + dynamic
  std::uint32_t RegistersPerThread = 32;
  /// The kernel's preferred shared-memory carveout, percent of the SM's
  /// maximum (cudaFuncAttributePreferredSharedMemoryCarveout,
  /// cudaFuncSetCacheConfig); < 0: none, the SM's maximum.
  int CarveoutPercent = -1;
  /// A kernel node of a graph: its device overhead is gpu.overheads.
  /// graph_kernel instead of empty_kernel.
  bool InGraph = false;
  /// The kernel's __launch_bounds__ maximum block size (0: none): a larger
  /// block cannot launch.
  std::uint32_t MaxThreadsBound = 0;
};

/// GPU parameters the kernel model uses, in base units.
struct GpuParams {
  std::array<double, NumPrecisions> Peak{}; ///< FLOP/s
  /// Tensor-core matrix peaks (FLOP/s; 0: none, the vector peak serves).
  std::array<double, NumPrecisions> MatrixPeak{};
  double PeakInt = 0; ///< OP/s
  /// Thread instructions issued per second, all SMs (0: not given; the
  /// pipes' times then add up).
  double PeakIssue = 0;
  double ComputeEfficiency = 1;
  double MemoryBandwidth = 0; ///< bytes/s
  double MemoryEfficiency = 1;
  unsigned SmCount = 1, WarpSize = 32, MaxThreadsPerSm = 2048,
           MaxBlocksPerSm = 32, MaxThreadsPerBlock = 1024,
           RegistersPerSm = 65536, MaxRegistersPerThread = 255,
           RegisterAllocationUnit = 256;
  double SharedMemoryPerSm = 0, SharedMemoryPerBlock = 0,
         SharedMemoryAllocationUnit = 128; ///< bytes
  double ComputeSaturationOccupancy = 1;
  /// Little's law for memory (docs/cost-model.md): the dependent-load
  /// latency of device memory and of L2, a block's turnaround on its SM
  /// (seconds).
  double MemoryLatency = 0, L2Latency = 0, BlockOverhead = 0;
  /// The L2 cache: bytes and achievable bandwidth (bytes/s); 0: none.
  double L2Size = 0, L2Bandwidth = 0;
  /// One SM's L1 data cache (bytes; 0: none), all SMs' L1 bandwidth
  /// (bytes/s) and its hit latency (seconds).
  double L1Size = 0, L1Bandwidth = 0, L1Latency = 0;
  /// The SRAM per SM the L1 and shared memory divide (bytes).
  double L1Unified = 0;
  double Launch = 0, Sync = 0, EmptyKernel = 0; ///< seconds
  /// Device time of an empty kernel node of a graph (seconds).
  double GraphKernel = 0;
  /// Host time of one cudaGraphLaunch, whatever its kernel count (seconds).
  double GraphLaunch = 0;
  /// Interval between two atomics to one address (seconds).
  double SameAddressAtomic = 0;
  /// Bytes/s between this GPU and a peer (node.gpu_links, else PCIe): what
  /// device-initiated NVSHMEM transfers run at.
  double PeerBandwidth = 0;
  /// FLOP-equivalents per divide, sqrt, transcendental, per precision.
  std::array<std::array<double, 3>, NumPrecisions> Weights{};
  double KernelRate = 0;          ///< R
  bool KernelRateIsBytes = false; ///< R in bytes/s (else FLOP/s)

  /// Which parameters are machine-file estimates: time that depends on one
  /// is reported as resting on estimates (Cost::estimated()).
  struct {
    std::array<bool, NumPrecisions> Peak{}, MatrixPeak{};
    std::array<std::array<bool, 3>, NumPrecisions> Weights{};
    bool PeakInt = false, PeakIssue = false, ComputeEfficiency = false,
         MemoryBandwidth = false, MemoryEfficiency = false,
         ComputeSaturation = false, Launch = false, Sync = false,
         GraphLaunch = false, GraphKernel = false, MemoryLatency = false,
         L2Latency = false, BlockOverhead = false, L2 = false, L1 = false,
         EmptyKernel = false, KernelRate = false, SameAddressAtomic = false;
  } Estimates;

  static GpuParams fromMachine(const Machine &M);
};

struct Occupancy {
  unsigned BlocksPerSm = 0;
  unsigned WarpsPerSm = 0;
  double Fraction = 0; ///< resident warps / maximum warps
  /// What limits BlocksPerSm: "threads", "blocks", "shared memory",
  /// "registers"; or why the launch cannot run (then BlocksPerSm == 0).
  std::string Limiter;
  bool valid() const { return BlocksPerSm > 0; }
};

/// The shared memory per SM a kernel runs with: the smallest of the SM's
/// configurations (0, 8, 16, 32, 64, 100, 132, 164, 196, 228 KiB, up to
/// gpu.sm.shared_memory) that holds the preferred carveout, and holds at
/// least one block of \p BlockBytes (the driver overrides a preference a
/// block does not fit, as CUDA's documentation says); the maximum without a
/// preference.
double sharedCapacityPerSm(const GpuParams &G, int CarveoutPercent,
                           double BlockBytes);

/// Resident blocks and warps per SM for \p L (the CUDA occupancy rules).
Occupancy computeOccupancy(const GpuParams &G, const LaunchConfig &L);

/// Weighted FLOPs of precision \p P: flops + w_div div + w_sqrt sqrt +
/// w_trans trans.
double weightedFlops(const GpuParams &G, const KernelWork &W, Precision P);

/// Device-memory bytes of one direction of a launch from a kernel hint's two
/// counts: the footprint (distinct bytes touched; < 0 when the analysis could
/// not derive it) where known, as a launch moves each byte in once,
/// otherwise the requested bytes (32-byte sectors per warp instruction).
/// What is requested beyond the footprint is KernelWork::ReusedReads.
double dramBytes(double Requested, double Footprint);

enum class Replacement { LeastRecentlyUsed, Random };

/// The share of re-reads a cache of \p Capacity bytes serves to a working
/// set of \p WorkingSet bytes read over and over: all of them when it fits.
/// Beyond, least-recently-used replacement serves none (each line is evicted
/// just before its next use); random replacement keeps some (a line survives
/// the misses of one sweep, WorkingSet x (1 - h) of them, each evicting it
/// with probability 1 / Capacity lines: h = exp(-(WorkingSet / Capacity)
/// (1 - h)), its stable root). 0 without a cache.
double cacheHitShare(double WorkingSet, double Capacity, Replacement Policy);

/// The launch's totals: per-thread counts times active threads (an FMA is
/// two FLOPs), DRAM bytes by dramBytes().
KernelWork kernelWork(const ThreadCounts &C);

enum class KernelModelKind { Roofline, SingleRate };

struct KernelEstimate {
  Cost Time; ///< launch, compute, memory (and sync for SingleRate)
  Occupancy Occ;
  std::uint64_t Waves = 0;
  std::uint64_t WorkingBlocks = 0; ///< blocks with at least one active thread
  double ComputeTime = 0;          ///< device time bound by arithmetic
  double MemoryTime = 0;           ///< device time bound by memory
  /// Bytes each level serves (re-reads included): the L1 (hits only), the
  /// L2 (hits only) and device memory.
  double L1Bytes = 0, L2Bytes = 0, DramBytes = 0;
  /// Same-address atomics, serialised: the longest chain of atomics to one
  /// address (a launch-wide address's; a block's, once per wave).
  double AtomicTime = 0;
  /// Device-initiated NVSHMEM transfers at the peer link bandwidth.
  double RemoteTime = 0;
  std::string Error; ///< non-empty: the launch is invalid
  bool ok() const { return Error.empty(); }
};

KernelEstimate kernelTime(const GpuParams &G, const KernelWork &W,
                          const LaunchConfig &L,
                          KernelModelKind Kind = KernelModelKind::Roofline);

/// Both models' view of one launch of an evaluated hint.
struct LaunchPrediction {
  KernelWork Work;
  KernelEstimate Roofline, SingleRate;
  double Flops = 0, Bytes = 0; ///< all precisions; DRAM bytes both ways
  /// What bounds the roofline time: "latency" (below the empty-kernel
  /// floor), "compute", "memory", "atomics" (same-address atomics
  /// serialised) or "remote" (device-initiated NVSHMEM transfers).
  const char *Bound = "";
};

/// \p L (its dynamic shared memory) with the kernel's own resources from
/// its counts: static shared memory added, ptxas registers where known.
LaunchConfig withKernelResources(const ThreadCounts &C, LaunchConfig L);

/// The one launch-time prediction of the runtime and the report. \p L's
/// SharedBytesPerBlock is the dynamic shared memory: the counts' static
/// bytes are added here; the counts' registers per thread (from ptxas), when
/// known, replace \p L's.
/// \p L2Share: the share of the launch's bytes an earlier launch left in
/// L2 (KernelWork::L2Share).
LaunchPrediction predictLaunch(const GpuParams &G, const ThreadCounts &C,
                               LaunchConfig L, double L2Share = 0);

} // namespace orrery::models

#endif // ORRERY_MODELS_KERNELMODEL_H
