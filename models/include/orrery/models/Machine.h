//===- Machine.h - The machine model read from a machine file ---*- C++ -*-===//
//
// Typed view of a machine file (docs/machine-file.md). Field names follow the
// YAML keys; every number is a Quantity (value in base units + provenance).
// All bandwidths are per direction.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_MACHINE_H
#define ORRERY_MODELS_MACHINE_H

#include "orrery/models/Quantity.h"

#include <array>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace orrery::models {

/// Floating-point precisions with separate peaks and operation weights.
enum class Precision { FP64 = 0, FP32 = 1, FP16 = 2 };
constexpr int NumPrecisions = 3;
std::string_view precisionName(Precision P);

/// Cost of the operations a kernel cost hint counts apart from add/mul/fma,
/// in FLOP-equivalents per operation.
struct OpWeights {
  Quantity Divide, Sqrt, Transcendental;
};

struct GpuModel {
  std::string Model;
  /// Virtual architecture for ptxas (`sm_90`); empty when the file has none.
  std::string Arch;
  // Peak throughputs of the vector units.
  std::array<Quantity, NumPrecisions> Peak; // FLOP/s, indexed by Precision
  /// The tensor cores' dense matrix-multiply peaks (gpu.peak.fp64_matrix,
  /// fp32_matrix for TF32, fp16_matrix; optional, 0: none, matrix work then
  /// runs at the vector peak).
  std::array<Quantity, NumPrecisions> MatrixPeak;
  Quantity PeakInt32; // OP/s
  /// Thread instructions the warp schedulers issue per second, all SMs
  /// (optional; 0: the pipes are taken to share issue, and their times add).
  Quantity PeakIssue;
  Quantity ComputeEfficiency; // achievable fraction of peak
  // Device memory. MemoryLatency: a dependent load that misses L2.
  Quantity MemoryCapacity, MemoryBandwidth, MemoryEfficiency, MemoryLatency;
  // The L2 cache (gpu.l2, optional: no L2 level when L2Size is 0): its
  // capacity, the bandwidth all SMs reach from it, a dependent load's hit
  // latency.
  Quantity L2Size, L2Bandwidth, L2Latency;
  // The SM's L1 data cache (gpu.l1, optional: no L1 level when L1Size is 0):
  // the capacity one SM's kernel data sees without shared memory in use (the
  // unified L1/shared SRAM less what the driver keeps), the bandwidth of all
  // SMs' L1s together, a dependent load's hit latency.
  Quantity L1Size, L1Bandwidth, L1Latency;
  // The SRAM per SM the L1 and shared memory divide (gpu.l1.unified,
  // optional: L1Size when absent); the L1 keeps what the shared-memory
  // carveout leaves, at most L1Size.
  Quantity L1Unified;
  // Interval between two atomics to one address (the L2 serialises them).
  Quantity SameAddressAtomic;
  // Streaming multiprocessors and their limits.
  Quantity SmCount, Clock, WarpSize, MaxThreadsPerSm, MaxBlocksPerSm,
      MaxThreadsPerBlock, SharedMemoryPerSm, SharedMemoryPerBlock,
      SharedMemoryAllocationUnit, RegistersPerSm, MaxRegistersPerThread,
      RegisterAllocationUnit;
  // Occupancy at which arithmetic reaches its achievable throughput (memory
  // follows Little's law instead, docs/cost-model.md).
  Quantity ComputeSaturationOccupancy;
  // Overheads: t_launch (host time of a launch call), t_sync, device time
  // of an empty kernel launched on a stream (added to every kernel's work).
  Quantity Launch, Sync, EmptyKernel;
  // Host time of a cudaGraphLaunch (optional: t_launch when absent).
  Quantity GraphLaunch;
  // Device time of an empty kernel node of a graph (optional: EmptyKernel).
  Quantity GraphKernel;
  // Turnaround of one thread block on an SM: dispatch, retire, draining its
  // stores (optional: 0, an estimate, when absent).
  Quantity BlockOverhead;
  std::array<OpWeights, NumPrecisions> Weights;
  /// The paper's single kernel rate R: a Rate (applied to weighted FLOPs) or
  /// a Bandwidth (applied to global-memory bytes).
  Quantity KernelRate;
};

enum class PeerLinkKind { NVLink, PCIe, None };
/// How GPUs of a node reach each other: a direct link per pair, a switch
/// (NVSwitch) with one port per GPU, or not at all.
enum class PeerTopology { FullyConnected, Switch, None };

struct PeerLinks {
  PeerLinkKind Kind = PeerLinkKind::None;
  PeerTopology Topology = PeerTopology::None;
  Quantity Bandwidth; ///< per direction, per pair (fully connected) or port
  Quantity Latency;
  /// NVLinks per GPU, all peers together (optional; 0 when not given):
  /// NCCL's bandwidth model counts links.
  Quantity Links;
  /// The switches reduce and multicast (NVLink SHARP, NCCL's NVLS).
  bool Nvls = false;
};

struct PcieModel {
  Quantity H2DBandwidth, D2HBandwidth, Latency, CallOverhead;
};

/// One size band of the shared-memory transport: messages of From bytes or
/// more (up to the next band's From) cost Latency + bytes / Bandwidth. The
/// MPI library switches protocol between bands (eager, rendezvous, single
/// copy).
struct SharedMemoryBand {
  Quantity From; ///< bytes; the first band (the top-level figures) is 0
  Quantity Bandwidth;
  Quantity Latency;
};

/// MPI messages between ranks of one node (the shared-memory transport of
/// Open MPI's vader/sm BTL or UCX's posix/sysv/cma transports).
struct SharedMemoryModel {
  Quantity Bandwidth; ///< one pair of ranks, per direction
  Quantity Latency;   ///< one-way latency of a small message
  /// Bands above the first (node.shm_transport.bands), sorted by From;
  /// empty: one band, Latency + bytes / Bandwidth at every size.
  std::vector<SharedMemoryBand> Bands;

  /// The band figures for a message of \p Bytes: {latency, bandwidth} in
  /// seconds and bytes per second.
  std::pair<double, double> at(double Bytes) const;
  /// The largest latency and bandwidth over all bands: the figures of the
  /// platform's shared-memory links, which the runtime scales down per band.
  double maxLatency() const;
  double maxBandwidth() const;
  /// Seconds one core takes to copy \p Bytes in its memory: the largest
  /// band's bandwidth is a single-copy transfer at one core's copy rate
  /// (0 where the machine gives no figure).
  double copySeconds(double Bytes) const;
};

struct CpuModel {
  std::string Model;
  Quantity Cores, CoreSpeed; // CoreSpeed: FLOP/s per core (SimGrid host speed)
};

struct NodeModel {
  Quantity Gpus;
  /// NICs per node (node.nics, optional): 0 means one per GPU. GPU g (and
  /// the CPU rail next to it) uses NIC g * nics / gpus.
  Quantity Nics;
  CpuModel Cpu;
  PeerLinks Peer;
  PcieModel Pcie;
  SharedMemoryModel SharedMemory;
  /// Host reduction throughput: t_reduce(n) = n / ReductionBandwidth
  /// (the paper's beta_op = 1 / ReductionBandwidth).
  Quantity ReductionBandwidth;
};

struct NicModel {
  Quantity Bandwidth, Latency; ///< per direction, one NIC per GPU
  bool GpuDirectRdma = false;
  Quantity AlphaGdr;
};

enum class TopologyKind { FatTree, Dragonfly, Flat };
std::string_view topologyName(TopologyKind K);

struct LinkSpec {
  Quantity Bandwidth, Latency;
};

struct TopologyModel {
  TopologyKind Kind = TopologyKind::Flat;
  Quantity SwitchLatency;
  // fat-tree (two levels; spines collapsed into one core of Spines x Uplink).
  Quantity NodesPerLeaf, Spines;
  LinkSpec Uplink;
  // dragonfly.
  Quantity NodesPerRouter, RoutersPerGroup;
  LinkSpec Local, Global;
};

/// RAMC over libfabric: per-call software overheads of the provider.
struct RamcModel {
  std::string Provider;
  Quantity PutOverhead, GetOverhead, AtomicOverhead, CompletionOverhead,
      RegistrationOverhead, InjectSize;
};

/// What the NIC figures of a network are (network.figures): MPI-level
/// benchmark results (osu_bw, osu_latency), which already include what MPI
/// loses to protocol and per-message overheads, or link-level figures (line
/// rates, wire latencies), which SMPI's size-dependent correction factors
/// turn into what MPI achieves. orrery-run picks its default network mode
/// from it (docs/orrery-run.md).
enum class NetworkFigures { Link, Mpi };
std::string_view networkFiguresName(NetworkFigures F);

struct NetworkModel {
  std::string Name;
  NetworkFigures Figures = NetworkFigures::Link;
  NicModel Nic;
  TopologyModel Topology;
  RamcModel Ramc;
};

/// Collectives that MPI libraries treat separately.
enum class Collective {
  Allreduce,
  Reduce,
  ReduceScatterBlock,
  ReduceScatter,
  Scan,
  Exscan,
  Bcast,
  Allgather,
  Gather,
  Scatter,
  Alltoall,
  Barrier,
};
constexpr int NumCollectives = 12;
std::string_view collectiveName(Collective C);
/// Parses "allreduce", "reduce_scatter_block", ...; false if unknown.
bool parseCollective(std::string_view Name, Collective &Out);

struct MpiModel {
  std::string Implementation;
  Quantity CallOverheadHost, CallOverheadDevice; ///< t_call per buffer space
  /// Collectives whose device buffers bounce through the host (coll/cuda).
  std::set<Collective> HostBounce;
  std::string CollectiveSelector;
};

struct Machine {
  std::string Name;
  std::string Description;
  GpuModel Gpu;
  NodeModel Node;
  NetworkModel Network;
  MpiModel Mpi;
  Quantity Nodes; ///< system.nodes: default node count
  /// Every number of the file with its dotted path, in file order.
  std::vector<NamedQuantity> Quantities;

  int gpusPerNode() const { return static_cast<int>(Node.Gpus.Value); }
  /// NICs per node: node.nics, or one per GPU.
  int nicsPerNode() const {
    return Node.Nics.Value > 0 ? static_cast<int>(Node.Nics.Value)
                               : gpusPerNode();
  }
  /// The NIC GPU (or rail) \p G of a node uses.
  int nicOf(int G) const {
    int Gpus = gpusPerNode() > 0 ? gpusPerNode() : 1;
    return G * nicsPerNode() / Gpus;
  }
  /// Share (0..1) of the numbers that are estimates.
  double estimateShare() const;
};

} // namespace orrery::models

#endif // ORRERY_MODELS_MACHINE_H
