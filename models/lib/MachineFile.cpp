//===- MachineFile.cpp - The machine-file schema --------------------------===//
//
// One function per section of docs/machine-file.md. Limits are plausibility
// bounds: they reject typos (a bandwidth in the wrong unit, a negative
// latency), not unusual machines.
//
//===----------------------------------------------------------------------===//

#include "orrery/models/MachineFile.h"

#include "FileText.h"
#include "SchemaReader.h"
#include "orrery/models/Units.h"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>

namespace orrery::models {

using detail::Limits;
using detail::MapScope;
using detail::Reader;

std::string Diagnostic::str() const {
  return Loc.str() + ": error: " + Message;
}

namespace {

// Plausibility bounds in base units.
const Limits MemoryBwL{1e6, 1e14};      // device memory: .. 100 TB/s
const Limits BandwidthL{1e6, 1e13};     // GPU links, switch links: 10 TB/s
const Limits IoBandwidthL{1e6, 1e12};   // PCIe, NICs, host: .. 1 TB/s
const Limits LatencyL{0, 1e-2, false};  // 0 .. 10 ms
const Limits OverheadL{0, 1e-2, false}; // 0 .. 10 ms
const Limits PeakL{1e9, 1e17};          // 1 GFLOP/s .. 100 PFLOP/s
const Limits RatioL{0, 1};              // (0, 1]
const Limits WeightL{1, 1000, false};   // 1 .. 1000 FLOP per op
const Limits ClockL{1e8, 1e10};         // 100 MHz .. 10 GHz
const Limits CapacityL{1e6, 1e13};      // 1 MB .. 10 TB
const Limits CacheL{1e3, 1e11};         // caches: 1 kB .. 100 GB
const Limits LoadLatencyL{0, 1e-5};     // a load: (0, 10 us]
Limits countL(double Max) { return Limits{0, Max, true, true}; }

void readWeights(MapScope &S, OpWeights &W) {
  W.Divide = S.quantity("div", Dimension::OpWeight, WeightL);
  W.Sqrt = S.quantity("sqrt", Dimension::OpWeight, WeightL);
  W.Transcendental = S.quantity("transcendental", Dimension::OpWeight, WeightL);
  S.finish();
}

/// R is a rate (per FLOP) or a bandwidth (per byte): the unit decides.
Quantity readKernelRate(MapScope &G) {
  Dimension D = Dimension::Rate;
  const YAML::Node N = G.peek("kernel_rate");
  // A missing unit is an invalid node, whose IsScalar() throws: ask
  // IsDefined() first (quantity() reports the missing unit).
  const YAML::Node U = N.IsMap() ? N["unit"] : YAML::Node();
  if (U.IsDefined() && U.IsScalar() &&
      unitFactor(Dimension::Bandwidth, U.Scalar()))
    D = Dimension::Bandwidth;
  return G.quantity("kernel_rate", D, D == Dimension::Rate ? PeakL : MemoryBwL);
}

/// sm_ followed by digits and an optional feature suffix (sm_90a).
bool isGpuArch(const std::string &A) {
  if (A.size() < 5 || A.compare(0, 3, "sm_") != 0)
    return false;
  size_t I = 3;
  while (I < A.size() && std::isdigit(static_cast<unsigned char>(A[I])))
    ++I;
  return I > 3 && (I == A.size() || (I + 1 == A.size() && A[I] == 'a'));
}

/// gpu.l2: a level between the SMs and device memory, so it must be faster
/// than that memory and closer than it.
void readL2(Reader &R, MapScope &G, GpuModel &Gpu) {
  MapScope L2 = G.map("l2");
  Gpu.L2Size = L2.quantity("size", Dimension::Bytes, CacheL);
  Gpu.L2Bandwidth = L2.quantity("bandwidth", Dimension::Bandwidth, MemoryBwL);
  Gpu.L2Latency = L2.quantity("latency", Dimension::Time, LoadLatencyL);
  L2.finish();
  if (!L2.accepted())
    return;
  // Compared only with plausible memory numbers (those report their own).
  bool MemoryOk = Gpu.MemoryEfficiency.Value <= 1 &&
                  Gpu.MemoryBandwidth.Value <= MemoryBwL.Max;
  if (MemoryOk && Gpu.L2Bandwidth.Value <=
                      Gpu.MemoryBandwidth.Value * Gpu.MemoryEfficiency.Value)
    R.error(L2.mark(), "'gpu.l2.bandwidth' must exceed what device memory "
                       "achieves ('gpu.memory.bandwidth' x "
                       "'gpu.memory.efficiency'): an L2 slower than its memory "
                       "would never be used");
  if (Gpu.L2Latency.Value >= Gpu.MemoryLatency.Value)
    R.error(L2.mark(), "'gpu.l2.latency' must be below 'gpu.memory.latency' "
                       "(an L2 hit cannot take longer than a miss)");
  if (Gpu.L2Size.Value >= Gpu.MemoryCapacity.Value)
    R.error(L2.mark(), "'gpu.l2.size' must be smaller than "
                       "'gpu.memory.capacity'");
}

/// gpu.l1: the level nearest the SMs, so it must be faster and closer than
/// the L2 (or device memory without one), and smaller than the L2.
void readL1(Reader &R, MapScope &G, GpuModel &Gpu) {
  MapScope L1 = G.map("l1");
  Gpu.L1Size = L1.quantity("size", Dimension::Bytes, CacheL);
  Gpu.L1Bandwidth = L1.quantity("bandwidth", Dimension::Bandwidth, MemoryBwL);
  Gpu.L1Latency = L1.quantity("latency", Dimension::Time, LoadLatencyL);
  if (L1.has("unified"))
    Gpu.L1Unified = L1.quantity("unified", Dimension::Bytes, CacheL);
  else
    Gpu.L1Unified = Gpu.L1Size;
  L1.finish();
  if (!L1.accepted())
    return;
  bool HasL2 = Gpu.L2Size.Value > 0;
  const char *Next = HasL2 ? "'gpu.l2" : "'gpu.memory";
  double NextBandwidth =
      HasL2 ? Gpu.L2Bandwidth.Value
            : Gpu.MemoryBandwidth.Value * Gpu.MemoryEfficiency.Value;
  double NextLatency = HasL2 ? Gpu.L2Latency.Value : Gpu.MemoryLatency.Value;
  if (Gpu.L1Bandwidth.Value <= NextBandwidth)
    R.error(L1.mark(), std::string("'gpu.l1.bandwidth' (all SMs together) "
                                   "must exceed ") +
                           Next +
                           ".bandwidth': an L1 slower than the level "
                           "behind it would never be used");
  if (Gpu.L1Latency.Value >= NextLatency)
    R.error(L1.mark(), std::string("'gpu.l1.latency' must be below ") + Next +
                           ".latency' (an L1 hit cannot take longer than a "
                           "miss)");
  if (Gpu.L1Unified.Value < Gpu.L1Size.Value)
    R.error(L1.mark(), "'gpu.l1.unified' (the SRAM the L1 and shared memory "
                       "divide) cannot be smaller than 'gpu.l1.size'");
  if (HasL2 && Gpu.L1Size.Value >= Gpu.L2Size.Value)
    R.error(L1.mark(), "'gpu.l1.size' (one SM's) must be smaller than "
                       "'gpu.l2.size'");
}

void readGpu(Reader &R, MapScope G, GpuModel &Gpu) {
  Gpu.Model = G.string("model");
  Gpu.Arch = G.optionalString("arch");
  if (!Gpu.Arch.empty() && !isGpuArch(Gpu.Arch))
    R.error(G.peek("arch").Mark(),
            "'gpu.arch' must be a CUDA architecture such as sm_90, not '" +
                Gpu.Arch + "'");
  MapScope Peak = G.map("peak");
  Gpu.Peak[0] = Peak.quantity("fp64", Dimension::Rate, PeakL);
  Gpu.Peak[1] = Peak.quantity("fp32", Dimension::Rate, PeakL);
  Gpu.Peak[2] = Peak.quantity("fp16", Dimension::Rate, PeakL);
  Gpu.PeakInt32 = Peak.quantity("int32", Dimension::Rate, PeakL);
  // Optional: instructions the warp schedulers issue per second (all SMs, in
  // thread instructions): FP32, FP64 and INT32 run on separate pipes that
  // share it.
  if (Peak.has("issue"))
    Gpu.PeakIssue = Peak.quantity("issue", Dimension::Rate, PeakL);
  // Optional: the tensor cores' dense matrix-multiply peaks.
  const char *Matrix[] = {"fp64_matrix", "fp32_matrix", "fp16_matrix"};
  const char *Vector[] = {"fp64", "fp32", "fp16"};
  for (int P = 0; P < NumPrecisions; ++P) {
    if (!Peak.has(Matrix[P]))
      continue;
    YAML::Mark At = Peak.peek(Matrix[P]).Mark();
    Gpu.MatrixPeak[P] = Peak.quantity(Matrix[P], Dimension::Rate, PeakL);
    if (Gpu.MatrixPeak[P].Value > 0 &&
        Gpu.MatrixPeak[P].Value < Gpu.Peak[P].Value)
      R.error(At, std::string("'gpu.peak.") + Matrix[P] +
                      "' must not be below 'gpu.peak." + Vector[P] +
                      "': tensor cores slower than the vector units would "
                      "never be used (the datasheet's Tensor Core figure "
                      "goes here)");
  }
  Peak.finish();
  Gpu.ComputeEfficiency =
      G.quantity("compute_efficiency", Dimension::Ratio, RatioL);

  MapScope Mem = G.map("memory");
  Gpu.MemoryCapacity = Mem.quantity("capacity", Dimension::Bytes, CapacityL);
  Gpu.MemoryBandwidth =
      Mem.quantity("bandwidth", Dimension::Bandwidth, MemoryBwL);
  Gpu.MemoryEfficiency = Mem.quantity("efficiency", Dimension::Ratio, RatioL);
  Gpu.MemoryLatency = Mem.quantity("latency", Dimension::Time, LoadLatencyL);
  Gpu.SameAddressAtomic =
      Mem.quantity("same_address_atomic", Dimension::Time, LatencyL);
  Mem.finish();
  if (G.has("l2"))
    readL2(R, G, Gpu);
  if (G.has("l1"))
    readL1(R, G, Gpu);

  MapScope Sm = G.map("sm");
  Gpu.SmCount = Sm.quantity("count", Dimension::Count, countL(4096));
  Gpu.Clock = Sm.quantity("clock", Dimension::Frequency, ClockL);
  Gpu.WarpSize = Sm.quantity("warp_size", Dimension::Count, countL(128));
  Gpu.MaxThreadsPerSm =
      Sm.quantity("max_threads", Dimension::Count, countL(65536));
  Gpu.MaxBlocksPerSm =
      Sm.quantity("max_blocks", Dimension::Count, countL(1024));
  Gpu.MaxThreadsPerBlock =
      Sm.quantity("max_threads_per_block", Dimension::Count, countL(65536));
  Gpu.SharedMemoryPerSm =
      Sm.quantity("shared_memory", Dimension::Bytes, Limits{0, 1 << 30});
  Gpu.SharedMemoryPerBlock = Sm.quantity("shared_memory_per_block",
                                         Dimension::Bytes, Limits{0, 1 << 30});
  Gpu.SharedMemoryAllocationUnit =
      Sm.quantity("shared_memory_allocation_unit", Dimension::Bytes,
                  Limits{0, 1 << 20, true, true});
  Gpu.RegistersPerSm =
      Sm.quantity("registers", Dimension::Count, countL(1 << 24));
  Gpu.MaxRegistersPerThread =
      Sm.quantity("max_registers_per_thread", Dimension::Count, countL(4096));
  Gpu.RegisterAllocationUnit =
      Sm.quantity("register_allocation_unit", Dimension::Count, countL(65536));
  Sm.finish();
  if (Sm.accepted()) {
    if (Gpu.MaxThreadsPerBlock.Value > Gpu.MaxThreadsPerSm.Value)
      R.error(Sm.mark(), "'gpu.sm.max_threads_per_block' exceeds "
                         "'gpu.sm.max_threads'");
    if (Gpu.SharedMemoryPerBlock.Value > Gpu.SharedMemoryPerSm.Value)
      R.error(Sm.mark(), "'gpu.sm.shared_memory_per_block' exceeds "
                         "'gpu.sm.shared_memory'");
    // Accepted counts: whole, at least 1, within their limits.
    if (static_cast<long>(Gpu.MaxThreadsPerSm.Value) %
            static_cast<long>(Gpu.WarpSize.Value) !=
        0)
      R.error(Sm.mark(), "'gpu.sm.max_threads' must be a multiple of "
                         "'gpu.sm.warp_size'");
  }

  MapScope Sat = G.map("saturation_occupancy");
  if (Sat.has("memory")) {
    Sat.allow("memory");
    R.error(Sat.peek("memory").Mark(),
            "'gpu.saturation_occupancy.memory' is no longer used: memory "
            "concurrency follows Little's law from 'gpu.memory.latency' and "
            "'gpu.overheads.block' (docs/cost-model.md); remove it");
  }
  Gpu.ComputeSaturationOccupancy =
      Sat.quantity("compute", Dimension::Ratio, RatioL);
  Sat.finish();

  MapScope Ov = G.map("overheads");
  Gpu.Launch = Ov.quantity("launch", Dimension::Time, OverheadL);
  Gpu.Sync = Ov.quantity("sync", Dimension::Time, OverheadL);
  Gpu.EmptyKernel = Ov.quantity("empty_kernel", Dimension::Time, OverheadL);
  // Optional: files written before it existed launch a graph like a kernel.
  Gpu.GraphLaunch =
      Ov.has("graph_launch")
          ? Ov.quantity("graph_launch", Dimension::Time, OverheadL)
          : Gpu.Launch;
  Gpu.GraphKernel =
      Ov.has("graph_kernel")
          ? Ov.quantity("graph_kernel", Dimension::Time, OverheadL)
          : Gpu.EmptyKernel;
  // Optional: without it a block's turnaround is taken as 0, an estimate.
  Gpu.BlockOverhead =
      Ov.has("block") ? Ov.quantity("block", Dimension::Time, OverheadL)
                      : Quantity::make(0, Dimension::Time, ValueKind::Estimate);
  Ov.finish();

  MapScope W = G.map("instruction_weights");
  const char *Names[NumPrecisions] = {"fp64", "fp32", "fp16"};
  for (int P = 0; P < NumPrecisions; ++P) {
    MapScope WP = W.map(Names[P]);
    readWeights(WP, Gpu.Weights[P]);
  }
  W.finish();

  Gpu.KernelRate = readKernelRate(G);
  G.finish();
}

/// node.shm_transport.bands (optional): further size bands, each
/// {from, latency, bandwidth}, from strictly increasing above 0.
void readShmBands(Reader &R, MapScope &Shm, SharedMemoryModel &S) {
  if (!Shm.has("bands"))
    return;
  Shm.allow("bands");
  YAML::Node Seq = Shm.peek("bands");
  const std::string P = Shm.path("bands");
  if (!Seq.IsSequence()) {
    R.error(Seq.Mark(), "'" + P +
                            "' must be a list of {from, latency, "
                            "bandwidth} (see docs/machine-file.md)");
    return;
  }
  double Previous = 0;
  for (std::size_t I = 0; I < Seq.size(); ++I) {
    MapScope B(R, Seq[I], P + "[" + std::to_string(I) + "]");
    if (!B.valid())
      continue;
    SharedMemoryBand Band;
    Band.From = B.quantity("from", Dimension::Bytes, Limits{0, 1e15});
    Band.Latency = B.quantity("latency", Dimension::Time, LatencyL);
    Band.Bandwidth =
        B.quantity("bandwidth", Dimension::Bandwidth, IoBandwidthL);
    B.finish();
    if (Band.From.Value > 0 && Band.From.Value <= Previous)
      R.error(Seq[I].Mark(), "'" + B.path("from") +
                                 "' must be above the previous band's "
                                 "'from'; list the bands by increasing size");
    Previous = std::max(Previous, Band.From.Value);
    S.Bands.push_back(Band);
  }
}

void readNode(Reader &R, MapScope N, NodeModel &Node) {
  Node.Gpus = N.quantity("gpus", Dimension::Count, countL(16));
  if (N.has("nics")) {
    Node.Nics = N.quantity("nics", Dimension::Count, countL(16));
    if (N.accepted() && Node.Nics.Value > Node.Gpus.Value)
      R.error(N.mark(), "'node.nics' = " +
                            formatQuantity(Node.Nics.Value, Dimension::Count) +
                            " is more than node.gpus; NICs are shared by "
                            "GPUs, not the other way round");
  }

  MapScope Cpu = N.map("cpu");
  Node.Cpu.Model = Cpu.string("model");
  Node.Cpu.Cores = Cpu.quantity("cores", Dimension::Count, countL(4096));
  Node.Cpu.CoreSpeed =
      Cpu.quantity("core_speed", Dimension::Rate, Limits{1e8, 1e13});
  Cpu.finish();

  MapScope L = N.map("gpu_links");
  int Type = L.choice("type", {"nvlink", "pcie", "none"});
  int Topo = L.choice("topology", {"fully-connected", "switch", "none"});
  if (Type >= 0)
    Node.Peer.Kind = static_cast<PeerLinkKind>(Type);
  if (Topo >= 0)
    Node.Peer.Topology = static_cast<PeerTopology>(Topo);
  if (Type >= 0 && Topo >= 0 && ((Type == 2) != (Topo == 2)))
    R.error(L.mark(), "'node.gpu_links': type 'none' goes with topology "
                      "'none' and only with it");
  if (Type < 0) {
    // Unknown type (already reported): do not cascade into unknown keys.
    L.allow("bandwidth");
    L.allow("latency");
    L.allow("links");
    L.allow("nvls");
  } else if (Node.Peer.Kind != PeerLinkKind::None) {
    Node.Peer.Bandwidth =
        L.quantity("bandwidth", Dimension::Bandwidth, BandwidthL);
    Node.Peer.Latency = L.quantity("latency", Dimension::Time, LatencyL);
    if (L.has("links"))
      Node.Peer.Links = L.quantity("links", Dimension::Count, countL(64));
    if (L.has("nvls")) {
      Node.Peer.Nvls = L.boolean("nvls");
      if (Node.Peer.Nvls && Node.Peer.Topology != PeerTopology::Switch)
        R.error(L.mark(), "'node.gpu_links.nvls' is true but the topology "
                          "is not 'switch': NVLink SHARP reduces in NVLink "
                          "switches; set 'topology: switch' or drop 'nvls'");
    }
  }
  L.finish();

  MapScope P = N.map("pcie");
  Node.Pcie.H2DBandwidth =
      P.quantity("h2d_bandwidth", Dimension::Bandwidth, IoBandwidthL);
  Node.Pcie.D2HBandwidth =
      P.quantity("d2h_bandwidth", Dimension::Bandwidth, IoBandwidthL);
  Node.Pcie.Latency = P.quantity("latency", Dimension::Time, LatencyL);
  Node.Pcie.CallOverhead =
      P.quantity("call_overhead", Dimension::Time, OverheadL);
  P.finish();

  MapScope Shm = N.map("shm_transport");
  Node.SharedMemory.Bandwidth =
      Shm.quantity("bandwidth", Dimension::Bandwidth, IoBandwidthL);
  Node.SharedMemory.Latency =
      Shm.quantity("latency", Dimension::Time, LatencyL);
  readShmBands(R, Shm, Node.SharedMemory);
  Shm.finish();

  Node.ReductionBandwidth = N.quantity("host_reduction_bandwidth",
                                       Dimension::Bandwidth, IoBandwidthL);
  N.finish();
}

void readLink(MapScope S, LinkSpec &L) {
  L.Bandwidth = S.quantity("bandwidth", Dimension::Bandwidth, BandwidthL);
  L.Latency = S.quantity("latency", Dimension::Time, LatencyL);
  S.finish();
}

void readNetwork(MapScope Net, NetworkModel &N) {
  N.Name = Net.string("name");
  // Optional: files written before it existed hold line rates.
  if (Net.has("figures") && Net.choice("figures", {"link", "mpi"}) == 1)
    N.Figures = NetworkFigures::Mpi;
  MapScope Nic = Net.map("nic");
  N.Nic.Bandwidth =
      Nic.quantity("bandwidth", Dimension::Bandwidth, IoBandwidthL);
  N.Nic.Latency = Nic.quantity("latency", Dimension::Time, LatencyL);
  N.Nic.GpuDirectRdma = Nic.boolean("gpudirect_rdma");
  N.Nic.AlphaGdr = Nic.quantity("alpha_gdr", Dimension::Time, OverheadL);
  Nic.finish();

  MapScope T = Net.map("topology");
  int Kind = T.choice("kind", {"fat-tree", "dragonfly", "flat"});
  if (Kind >= 0)
    N.Topology.Kind = static_cast<TopologyKind>(Kind);
  N.Topology.SwitchLatency =
      T.quantity("switch_latency", Dimension::Time, LatencyL);
  if (Kind == 0) {
    N.Topology.NodesPerLeaf =
        T.quantity("nodes_per_leaf", Dimension::Count, countL(4096));
    N.Topology.Spines = T.quantity("spines", Dimension::Count, countL(4096));
    readLink(T.map("uplink"), N.Topology.Uplink);
  } else if (Kind == 1) {
    N.Topology.NodesPerRouter =
        T.quantity("nodes_per_router", Dimension::Count, countL(1024));
    N.Topology.RoutersPerGroup =
        T.quantity("routers_per_group", Dimension::Count, countL(1024));
    readLink(T.map("local"), N.Topology.Local);
    readLink(T.map("global"), N.Topology.Global);
  } else if (Kind < 0) {
    // Unknown kind (already reported): do not cascade into unknown keys.
    for (const char *K :
         {"nodes_per_leaf", "spines", "uplink", "nodes_per_router",
          "routers_per_group", "local", "global"})
      T.allow(K);
  }
  T.finish();

  MapScope Ramc = Net.map("ramc");
  N.Ramc.Provider = Ramc.string("provider");
  N.Ramc.PutOverhead =
      Ramc.quantity("put_overhead", Dimension::Time, OverheadL);
  N.Ramc.GetOverhead =
      Ramc.quantity("get_overhead", Dimension::Time, OverheadL);
  N.Ramc.AtomicOverhead =
      Ramc.quantity("atomic_overhead", Dimension::Time, OverheadL);
  N.Ramc.CompletionOverhead =
      Ramc.quantity("completion_overhead", Dimension::Time, OverheadL);
  N.Ramc.RegistrationOverhead =
      Ramc.quantity("registration_overhead", Dimension::Time, OverheadL);
  N.Ramc.InjectSize = Ramc.quantity("inject_size", Dimension::Bytes,
                                    Limits{0, 1 << 20, false, true});
  Ramc.finish();
  Net.finish();
}

void readMpi(Reader &R, MapScope M, MpiModel &Mpi) {
  Mpi.Implementation = M.string("implementation");
  MapScope C = M.map("call_overhead");
  Mpi.CallOverheadHost = C.quantity("host", Dimension::Time, OverheadL);
  Mpi.CallOverheadDevice = C.quantity("device", Dimension::Time, OverheadL);
  C.finish();
  for (auto &[Name, Mark] : M.stringList("host_bounce")) {
    Collective Coll;
    if (!parseCollective(Name, Coll)) {
      R.error(Mark, "'" + Name +
                        "' in 'mpi.host_bounce' is not a "
                        "collective; use e.g. allreduce, reduce, "
                        "reduce_scatter_block, scan, exscan");
      continue;
    }
    Mpi.HostBounce.insert(Coll);
  }
  Mpi.CollectiveSelector = M.string("collective_selector");
  M.finish();
}

void readHeader(MapScope &Top, ParsedFile &Out, Reader &R) {
  YAML::Mark M = Top.mark();
  std::string Schema = Top.string("schema");
  if (Top.valid() && Top.has("schema") && Schema != MachineSchemaId)
    R.error(M, "unsupported schema '" + Schema + "'; this build reads '" +
                   std::string(MachineSchemaId) + "'");
  int Type = Top.choice("type", {"machine", "network"});
  Out.Type = Type == 1 ? FileType::Network : FileType::Machine;
  Out.M.Name = Top.string("name");
  Out.M.Description = Top.optionalString("description");
}

/// Records where each YAML document starts.
class DocumentStarts : public YAML::EventHandler {
public:
  std::vector<YAML::Mark> Starts;
  void OnDocumentStart(const YAML::Mark &M) override { Starts.push_back(M); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark &, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark &, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark &, const std::string &, YAML::anchor_t,
                const std::string &) override {}
  void OnSequenceStart(const YAML::Mark &, const std::string &, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark &, const std::string &, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

/// Where the second document of Text starts, if it has one. Throws
/// YAML::Exception on a syntax error in any document.
std::optional<YAML::Mark> secondDocument(std::string_view Text) {
  std::istringstream In{std::string(Text)};
  YAML::Parser P(In);
  DocumentStarts Handler;
  while (Handler.Starts.size() < 2 && P.HandleNextDocument(Handler)) {
  }
  if (Handler.Starts.size() < 2)
    return std::nullopt;
  return Handler.Starts[1];
}

} // namespace

ParsedFile parseMachineText(std::string_view Text,
                            const std::string &FileName) {
  ParsedFile Out;
  Reader R(FileName, Out.Errors, Out.M.Quantities);
  YAML::Node Root;
  try {
    Root = YAML::Load(std::string(Text));
    // YAML::Load reads the first document only; a second one would be
    // silently ignored, so it is an error.
    if (std::optional<YAML::Mark> Second = secondDocument(Text)) {
      R.error(*Second, "a second YAML document starts here; a machine file "
                       "is one document: remove the '---' line and what "
                       "follows, or split the file");
      return Out;
    }
  } catch (const YAML::Exception &E) {
    R.error(E.mark, "YAML syntax error: " + E.msg);
    return Out;
  }
  if (!Root.IsDefined() || Root.IsNull()) {
    R.error(YAML::Mark(), "the file is empty; start from a shipped machine "
                          "file in models/machines/");
    return Out;
  }
  MapScope Top(R, Root, "");
  if (!Top.valid())
    return Out;
  readHeader(Top, Out, R);
  if (Out.Type == FileType::Machine) {
    readGpu(R, Top.map("gpu"), Out.M.Gpu);
    readNode(R, Top.map("node"), Out.M.Node);
    readNetwork(Top.map("network"), Out.M.Network);
    readMpi(R, Top.map("mpi"), Out.M.Mpi);
    MapScope Sys = Top.map("system");
    Out.M.Nodes = Sys.quantity("nodes", Dimension::Count, countL(1 << 20));
    Sys.finish();
  } else {
    readNetwork(Top.map("network"), Out.M.Network);
  }
  Top.finish();
  return Out;
}

ParsedFile loadMachineFile(const std::string &Path) {
  std::string Text, Error;
  if (!detail::readMachineFileText(Path, Text, Error)) {
    ParsedFile Out;
    SourceLocation L;
    L.File = Path;
    Out.Errors.push_back({L, Error});
    return Out;
  }
  return parseMachineText(Text, Path);
}

void applyNetwork(Machine &M, const Machine &Net) {
  M.Network = Net.Network;
  std::vector<NamedQuantity> Kept;
  for (NamedQuantity &NQ : M.Quantities)
    if (NQ.Path.rfind("network.", 0) != 0)
      Kept.push_back(std::move(NQ));
  for (const NamedQuantity &NQ : Net.Quantities)
    Kept.push_back(NQ);
  M.Quantities = std::move(Kept);
}

} // namespace orrery::models
