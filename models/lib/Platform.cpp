//===- Platform.cpp - SimGrid platform generation -------------------------===//

#include "orrery/models/Platform.h"

#include "PlatformXml.h"

#include <algorithm>
#include <cmath>

namespace orrery::models {

using detail::XmlWriter;

std::string nodeZoneName(int Node) { return "node" + std::to_string(Node); }
std::string cpuHostName(int Node, int Rail) {
  return nodeZoneName(Node) + "-cpu" + std::to_string(Rail);
}
int railsPerNode(const Machine &M) { return std::max(1, M.gpusPerNode()); }
std::string gpuHostName(int Node, int Gpu) {
  return nodeZoneName(Node) + "-gpu" + std::to_string(Gpu);
}

LinkClass classifyLink(std::string_view Name) {
  auto Starts = [&](std::string_view P) {
    return Name.substr(0, P.size()) == P;
  };
  auto Ends = [&](std::string_view S) {
    return Name.size() >= S.size() && Name.substr(Name.size() - S.size()) == S;
  };
  if (Starts("node")) {
    // nodeK-<kind>...: skip the node index.
    std::size_t Dash = Name.find('-');
    if (Dash == std::string_view::npos)
      return LinkClass::Other;
    std::string_view Rest = Name.substr(Dash + 1);
    auto RestStarts = [&](std::string_view P) {
      return Rest.substr(0, P.size()) == P;
    };
    if (RestStarts("pcie"))
      return LinkClass::Pcie;
    if (RestStarts("nvlink"))
      return LinkClass::NvLink;
    if (RestStarts("nic"))
      return LinkClass::Nic;
    if (RestStarts("shm"))
      return LinkClass::SharedMemory;
    if (RestStarts("uplink"))
      return LinkClass::Fabric;
    return LinkClass::Other;
  }
  // A block of a switch's ports ("<switch>-bK-up", portsZone) is fabric
  // whatever the switch.
  std::size_t Block = Name.rfind("-b");
  bool BlockLink = Block != std::string_view::npos && Block + 2 < Name.size() &&
                   Name[Block + 2] >= '0' && Name[Block + 2] <= '9';
  if (((Starts("leaf") || BlockLink) && (Ends("-up") || Ends("-down"))) ||
      (Starts("g") && Name.find("-local") != std::string_view::npos) ||
      Starts("global"))
    return LinkClass::Fabric;
  return LinkClass::Other;
}

namespace {

std::string gatewayName(int Node) { return nodeZoneName(Node) + "-gw"; }
std::string routerOf(const std::string &Zone) { return Zone + "-router"; }

/// One node zone: hosts, links, and the routes among them and to the gateway.
void writeNode(XmlWriter &X, const Machine &M, int K) {
  const std::string N = nodeZoneName(K);
  const int Gpus = M.gpusPerNode();
  const NodeModel &Node = M.Node;
  const NicModel &Nic = M.Network.Nic;
  const int Rails = railsPerNode(M);
  const double Cores = Node.Cpu.Cores.Value;
  X.openZone(N, "Full", 1);
  // One CPU host per rail: the cores next to GPU R and its NIC (ranks are
  // bound to them round-robin by local rank). Each has a disk, so that
  // MPI-IO opens files; storage is not modelled: the disk answers at
  // UntimedDiskBandwidth (docs/simulate.md, "Not modelled yet").
  constexpr double UntimedDiskBandwidth = 1e15;
  for (int R = 0; R < Rails; ++R)
    X.host(cpuHostName(K, R), Node.Cpu.CoreSpeed.Value,
           std::max(1, static_cast<int>(Cores / Rails)),
           {{"orrery_role", "cpu"},
            {"orrery_node", std::to_string(K)},
            {"orrery_rail", std::to_string(R)}},
           2, UntimedDiskBandwidth);
  for (int G = 0; G < Gpus; ++G)
    X.host(gpuHostName(K, G), M.Gpu.Peak[0].Value, 1,
           {{"orrery_role", "gpu"},
            {"orrery_node", std::to_string(K)},
            {"orrery_gpu", std::to_string(G)}},
           2);
  X.router(gatewayName(K), 2);

  auto P = [&](int G, const char *Dir) {
    return N + "-pcie" + std::to_string(G) + "-" + Dir;
  };
  auto Nc = [&](int G, const char *Dir) {
    return N + "-nic" + std::to_string(G) + "-" + Dir;
  };
  auto Shm = [&](int R) { return N + "-shm" + std::to_string(R); };
  for (int G = 0; G < Gpus; ++G) {
    X.link(P(G, "h2d"), Node.Pcie.H2DBandwidth.Value, Node.Pcie.Latency.Value,
           2);
    X.link(P(G, "d2h"), Node.Pcie.D2HBandwidth.Value, Node.Pcie.Latency.Value,
           2);
  }
  // One NIC per GPU, or node.nics shared by neighbouring GPUs.
  for (int I = 0; I < M.nicsPerNode(); ++I) {
    X.link(Nc(I, "tx"), Nic.Bandwidth.Value, Nic.Latency.Value, 2);
    X.link(Nc(I, "rx"), Nic.Bandwidth.Value, Nic.Latency.Value, 2);
  }
  // Messages between ranks of the node (shared memory): one link per rail,
  // the sending rail's cores copying at the machine file's shm_transport
  // rate. Rails do not slow each other down (a node's memory bandwidth is
  // far above a few single-core copies); ranks of one rail share its link.
  // With size bands the link has the largest figures and the runtime's
  // factor callbacks scale each message down to its band's.
  for (int R = 0; R < Rails; ++R)
    X.link(Shm(R), Node.SharedMemory.maxBandwidth(),
           Node.SharedMemory.maxLatency(), 2);

  const PeerLinks &Peer = Node.Peer;
  bool NvFull = Peer.Kind == PeerLinkKind::NVLink &&
                Peer.Topology == PeerTopology::FullyConnected;
  bool NvSwitch = Peer.Kind == PeerLinkKind::NVLink &&
                  Peer.Topology == PeerTopology::Switch;
  auto Nv = [&](int A, int B) {
    return N + "-nvlink" + std::to_string(A) + "-" + std::to_string(B);
  };
  auto NvPort = [&](int G, const char *Dir) {
    return N + "-nvlink" + std::to_string(G) + "-" + Dir;
  };
  if (NvFull)
    for (int A = 0; A < Gpus; ++A)
      for (int B = 0; B < Gpus; ++B)
        if (A != B)
          X.link(Nv(A, B), Peer.Bandwidth.Value, Peer.Latency.Value, 2);
  if (NvSwitch)
    for (int G = 0; G < Gpus; ++G) {
      X.link(NvPort(G, "up"), Peer.Bandwidth.Value, Peer.Latency.Value, 2);
      X.link(NvPort(G, "down"), Peer.Bandwidth.Value, 0, 2);
    }

  const std::string Gw = gatewayName(K);
  for (int R = 0; R < Rails; ++R) {
    const std::string Cpu = cpuHostName(K, R);
    for (int S = 0; S < Rails; ++S)
      X.route(Cpu, cpuHostName(K, S), {Shm(R)}, 2);
    // Host-buffer traffic leaves through the rail's own NIC.
    X.route(Cpu, Gw, {Nc(M.nicOf(R), "tx")}, 2);
    X.route(Gw, Cpu, {Nc(M.nicOf(R), "rx")}, 2);
    for (int G = 0; G < Gpus; ++G) {
      X.route(Cpu, gpuHostName(K, G), {P(G, "h2d")}, 2);
      X.route(gpuHostName(K, G), Cpu, {P(G, "d2h")}, 2);
    }
  }
  for (int G = 0; G < Gpus; ++G) {
    const std::string Gh = gpuHostName(K, G);
    // GPUDirect path: the GPU's PCIe link, then its NIC.
    X.route(Gh, Gw, {P(G, "d2h"), Nc(M.nicOf(G), "tx")}, 2);
    X.route(Gw, Gh, {Nc(M.nicOf(G), "rx"), P(G, "h2d")}, 2);
    for (int B = 0; B < Gpus; ++B) {
      if (B == G)
        continue;
      const std::string Bh = gpuHostName(K, B);
      if (NvFull)
        X.route(Gh, Bh, {Nv(G, B)}, 2);
      else if (NvSwitch)
        X.route(Gh, Bh, {NvPort(G, "up"), NvPort(B, "down")}, 2);
      else // PCIe peer, or staged: through the PCIe links of both GPUs.
        X.route(Gh, Bh, {P(G, "d2h"), P(B, "h2d")}, 2);
    }
  }
  X.closeZone(1);
}

/// Nodes one switch zone serves directly; a switch with more (a flat
/// network of many nodes) serves them through blocks of this many.
constexpr int MaxPorts = 64;
constexpr double UnlimitedBandwidth = 1e30; ///< B/s; see portsZone

/// The system topology: switch zones, the nodes attached to them, and the
/// links and zone routes between them.
///
/// Each switch that nodes attach to is written with those nodes inside one
/// "<switch>-ports" zone (DijkstraCache), and the system zone routes only
/// between such zones and the switches above them. SimGrid's DijkstraCache
/// runs one shortest-path search over its whole zone per source and keeps
/// an array of the zone's size per source: with every node in the system
/// zone, that was nodes^2 work and memory at the first messages (about two
/// minutes and 2 GiB for 16,384 nodes). Routes keep their links, in the
/// same order, and their latencies.
class SystemBuilder {
public:
  SystemBuilder(XmlWriter &Zones, const Machine &M, int Nodes)
      : Zones(Zones), M(M), Nodes(Nodes) {}

  void build() {
    const TopologyModel &T = M.Network.Topology;
    switch (T.Kind) {
    case TopologyKind::Flat:
      portsZone("switch", 0, Nodes);
      break;
    case TopologyKind::FatTree:
      buildFatTree(T);
      break;
    case TopologyKind::Dragonfly:
      buildDragonfly(T);
      break;
    }
  }

  std::string RouteText; ///< the system zone's routes (after its zones)
  PlatformStats Stats;   ///< routes written outside \c Zones

private:
  static std::string portsOf(const std::string &Switch) {
    return Switch + "-ports";
  }

  void switchZone(const std::string &Z) {
    Zones.openZone(Z, "Full", 1);
    Zones.router(routerOf(Z), 2);
    Zones.closeZone(1);
  }

  /// Switch \p Switch and nodes [First, First + Count) on its ports, in one
  /// zone. More than MaxPorts nodes go into blocks, each a ports zone of its
  /// own, joined to the switch by a link pair that stands for the switch's
  /// non-blocking backplane (SimGrid forbids routes without links): no
  /// latency, and a bandwidth so large, and shared by no flow with another
  /// (FATPIPE), that it changes no rate. SMPI's network model adds
  /// weight_S / bandwidth per link of a route to a flow's sharing penalty;
  /// at 1e30 B/s that term is below a double's precision, so a route through
  /// blocks gets bit for bit the times of one without.
  void portsZone(const std::string &Switch, int First, int Count) {
    Zones.openZone(portsOf(Switch), "DijkstraCache", 1);
    ++Zones.Depth;
    switchZone(Switch);
    std::string Routes;
    XmlWriter R(Routes);
    R.Depth = Zones.Depth;
    if (Count <= MaxPorts) {
      for (int K = First; K < First + Count; ++K) {
        writeNode(Zones, M, K);
        attach(R, K, Switch);
      }
    } else {
      for (int B = 0; B * MaxPorts < Count; ++B) {
        std::string Block = Switch + "-b" + std::to_string(B);
        int InBlock = std::min(MaxPorts, Count - B * MaxPorts);
        portsZone(Block, First + B * MaxPorts, InBlock);
        connect(R, portsOf(Block), routerOf(Block), Switch, routerOf(Switch),
                Block, UnlimitedBandwidth, 0, "up", "down", true);
      }
    }
    Zones.raw(Routes);
    Stats.Routes += R.Stats.Routes;
    --Zones.Depth;
    Zones.closeZone(1);
  }

  /// Both directions between two zones through their gateways, on a new
  /// link pair; the routes go to \p R.
  void connect(XmlWriter &R, const std::string &A, const std::string &GwA,
               const std::string &B, const std::string &GwB,
               const std::string &Name, double Bw, double Lat,
               const char *Fwd = "up", const char *Back = "down",
               bool FatPipe = false) {
    Zones.link(Name + "-" + Fwd, Bw, Lat, 2, FatPipe);
    Zones.link(Name + "-" + Back, Bw, Lat, 2, FatPipe);
    R.zoneRoute(A, B, GwA, GwB, Name + "-" + Fwd, 1);
    R.zoneRoute(B, A, GwB, GwA, Name + "-" + Back, 1);
  }

  /// Two switches of the system zone (each in its ports zone, or alone).
  void connectSwitches(const std::string &ZoneA, const std::string &SwA,
                       const std::string &ZoneB, const std::string &SwB,
                       const std::string &Name, double Bw, double Lat,
                       const char *Fwd = "up", const char *Back = "down") {
    XmlWriter R(RouteText);
    connect(R, ZoneA, routerOf(SwA), ZoneB, routerOf(SwB), Name, Bw, Lat, Fwd,
            Back);
    Stats.Routes += R.Stats.Routes;
  }

  /// A node's cables into its switch: the NICs' aggregate, one switch hop
  /// of latency.
  void attach(XmlWriter &R, int K, const std::string &Switch) {
    double Bw = M.nicsPerNode() * M.Network.Nic.Bandwidth.Value;
    connect(R, nodeZoneName(K), gatewayName(K), Switch, routerOf(Switch),
            nodeZoneName(K) + "-uplink", Bw,
            M.Network.Topology.SwitchLatency.Value, "tx", "rx");
  }

  void buildFatTree(const TopologyModel &T) {
    int PerLeaf = static_cast<int>(T.NodesPerLeaf.Value);
    int Leaves = (Nodes + PerLeaf - 1) / PerLeaf;
    auto Leaf = [](int L) { return "leaf" + std::to_string(L); };
    for (int L = 0; L < Leaves; ++L)
      portsZone(Leaf(L), L * PerLeaf, std::min(PerLeaf, Nodes - L * PerLeaf));
    if (Leaves < 2)
      return;
    switchZone("core");
    for (int L = 0; L < Leaves; ++L)
      connectSwitches(portsOf(Leaf(L)), Leaf(L), "core", "core", Leaf(L),
                      T.Spines.Value * T.Uplink.Bandwidth.Value,
                      T.Uplink.Latency.Value + T.SwitchLatency.Value);
  }

  void buildDragonfly(const TopologyModel &T) {
    int PerRouter = static_cast<int>(T.NodesPerRouter.Value);
    int PerGroup = static_cast<int>(T.RoutersPerGroup.Value);
    int Routers = (Nodes + PerRouter - 1) / PerRouter;
    int Groups = (Routers + PerGroup - 1) / PerGroup;
    auto Name = [&](int R) {
      return "g" + std::to_string(R / PerGroup) + "-r" +
             std::to_string(R % PerGroup);
    };
    auto GroupSize = [&](int G) {
      return std::min(PerGroup, Routers - G * PerGroup);
    };
    for (int R = 0; R < Routers; ++R)
      portsZone(Name(R), R * PerRouter,
                std::min(PerRouter, Nodes - R * PerRouter));
    double Sw = T.SwitchLatency.Value;
    for (int G = 0; G < Groups; ++G)
      for (int A = 0; A < GroupSize(G); ++A)
        for (int B = A + 1; B < GroupSize(G); ++B) {
          std::string Ra = Name(G * PerGroup + A), Rb = Name(G * PerGroup + B);
          connectSwitches(portsOf(Ra), Ra, portsOf(Rb), Rb,
                          "g" + std::to_string(G) + "-local" +
                              std::to_string(A) + "-" + std::to_string(B),
                          T.Local.Bandwidth.Value, T.Local.Latency.Value + Sw,
                          "fwd", "back");
        }
    for (int G = 0; G < Groups; ++G)
      for (int H = G + 1; H < Groups; ++H) {
        std::string Rg = Name(G * PerGroup + H % GroupSize(G));
        std::string Rh = Name(H * PerGroup + G % GroupSize(H));
        connectSwitches(portsOf(Rg), Rg, portsOf(Rh), Rh,
                        "global" + std::to_string(G) + "-" + std::to_string(H),
                        T.Global.Bandwidth.Value, T.Global.Latency.Value + Sw,
                        "fwd", "back");
      }
  }

  XmlWriter &Zones;
  const Machine &M;
  int Nodes;
};

} // namespace

bool writePlatform(std::ostream &OS, const Machine &M,
                   const PlatformOptions &Opts, std::string &Error,
                   PlatformStats *Stats) {
  if (Opts.Nodes < 1) {
    Error = "the platform needs at least one node";
    return false;
  }
  if (M.gpusPerNode() < 1) {
    Error = "the machine has no GPUs per node";
    return false;
  }
  // SimGrid (3.32) resolves every <link_ctn> from the root zone, searching
  // the zones depth first: declaring all links in one first child zone keeps
  // each lookup to one map search instead of a walk over every node zone
  // (20 s instead of 2.6 s to load 1,024 DGX nodes).
  std::string Zones, Links;
  Zones.reserve(static_cast<std::size_t>(Opts.Nodes) * 9000);
  Links.reserve(static_cast<std::size_t>(Opts.Nodes) * 4000);
  XmlWriter X(Zones, &Links);
  SystemBuilder Sys(X, M, Opts.Nodes);
  Sys.build();

  OS << "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
     << "<!-- Generated by orrery-platform: machine '" << M.Name << "'"
     << (Opts.Origin.empty() ? "" : " (" + Opts.Origin + ")") << ", "
     << Opts.Nodes << (Opts.Nodes == 1 ? " node, " : " nodes, ")
     << topologyName(M.Network.Topology.Kind)
     << " network. Bandwidths are per direction. -->\n"
     << "<platform version=\"4.1\">\n"
     << "<zone id=\"system\" routing=\"DijkstraCache\">\n"
     << "  <zone id=\"links\" routing=\"None\">\n"
     << Links << "  </zone>\n"
     << Zones << Sys.RouteText << "</zone>\n</platform>\n";
  if (Stats) {
    *Stats = X.Stats;
    Stats->Zones += 2; // system and links
    Stats->Routes += Sys.Stats.Routes;
  }
  return static_cast<bool>(OS);
}

void writeHostfile(std::ostream &OS, int Nodes, int RanksPerNode, int Rails) {
  for (int K = 0; K < Nodes; ++K)
    for (int R = 0; R < RanksPerNode; ++R)
      OS << cpuHostName(K, R % std::max(1, Rails)) << '\n';
}

} // namespace orrery::models
