//===- NcclCost.cpp - Time of an NCCL collective or point-to-point --------===//
//
// Every constant below is NVIDIA/nccl v2.23.4-1's, from src/graph/tuning.cc
// (latencies, protocol factors, LL limits, the tree's size correction) and
// src/graph/topo.h (NCCL's bandwidth of one NVLink by GPU generation).
//
//===----------------------------------------------------------------------===//

#include "orrery/models/NcclCost.h"
#include "orrery/models/Machine.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <vector>

namespace orrery::models {

namespace {

constexpr double Us = 1e-6, GB = 1e9;
constexpr int Tree = 0, Ring = 1, Nvls = 2;
constexpr int LL = 0, LL128 = 1, Simple = 2;

// tuning.cc baseLat (us), by algorithm {Tree, Ring}, protocol.
constexpr double BaseLatency[2][3] = {{6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}};
// tuning.cc hwLat (us) per hop, by link {NVLink, PCI, network}, algorithm
// {Tree, Ring}, protocol.
constexpr double HopLatency[3][2][3] = {{{0.6, 1.25, 4.0}, {0.6, 1.9, 3.4}},
                                        {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}},
                                        {{5.0, 8.5, 14}, {2.7, 4.0, 14.0}}};
// tuning.cc hwLat of NVLS (Simple only): over NVLink.
constexpr double NvlsLatency = 25;
// tuning.cc llMaxBws (GB/s): rows Volta/Intel, Ampere/AMD, Hopper/AMD
// (one node: by GPU; more: by CPU vendor), columns 1, 2, more nodes.
constexpr double LLMaxBandwidth[3][3] = {
    {39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}};
// tuning.cc treeCorrectionFactor, by protocol and log2(bytes / 64).
constexpr double TreeCorrection[3][23] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7,  .7,  .7,  .6, .5,
     .4,  .4,  .5,  .6,  .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7,  .6, .6,
     .6,  .6,  .6,  .6,  .8,  .9, .9, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5,
     .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}};
// NCCL's NVLS bandwidth factor (tuning.cc: ratio *= 5.0/6.0).
constexpr double NvlsEfficiency = 5.0 / 6.0;
// NCCL's MAXCHANNELS: the ring plateau below applies from 64 bytes per
// channel and rank; Orrery does not model the channel count and takes the
// most channels NCCL may use.
constexpr double MaxChannels = 32;

constexpr std::string_view AlgorithmNames[3] = {"Tree", "Ring", "NVLS"};
constexpr std::string_view ProtocolNames[3] = {"LL", "LL128", "Simple"};
// Algorithms NCCL_ALGO may name that Orrery does not model.
constexpr std::string_view OtherAlgorithms[] = {"CollNetDirect", "CollNetChain",
                                                "CollNet", "NVLSTree", "PAT"};

std::string lower(std::string_view S) {
  std::string L;
  for (char C : S)
    L += static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return L;
}

std::string trim(std::string_view S) {
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.front())))
    S.remove_prefix(1);
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.back())))
    S.remove_suffix(1);
  return std::string(S);
}

/// NCCL's parseList: "A,B" enables only those, "^A,B" all but those.
/// \p Ignored are names that exist but select nothing here.
template <size_t N>
bool parseList(std::string_view Spec, const std::string_view (&Names)[N],
               const std::vector<std::string_view> &Ignored,
               std::array<bool, N> &Enabled, std::string &Error) {
  bool Exclude = !Spec.empty() && Spec.front() == '^';
  if (Exclude)
    Spec.remove_prefix(1);
  std::array<bool, N> Named{};
  while (true) {
    size_t Comma = Spec.find(',');
    std::string Name = lower(trim(Spec.substr(0, Comma)));
    if (!Name.empty()) {
      bool Known = false;
      for (size_t I = 0; I < N; ++I)
        if (lower(Names[I]) == Name)
          Named[I] = Known = true;
      for (std::string_view O : Ignored)
        Known = Known || lower(O) == Name;
      if (!Known) {
        Error = "'" + Name + "' is not a name NCCL knows";
        return false;
      }
    }
    if (Comma == std::string_view::npos)
      break;
    Spec.remove_prefix(Comma + 1);
  }
  for (size_t I = 0; I < N; ++I)
    Enabled[I] = Exclude ? !Named[I] : Named[I];
  return true;
}

/// floor(log2(N)), NCCL's log2i.
int log2i(double N) {
  int L = 0;
  for (long long V = static_cast<long long>(N); V > 1; V >>= 1)
    ++L;
  return L;
}

double busBandwidth(const NcclSystem &S) {
  double B = S.IntraBandwidth;
  if (S.Nodes > 1)
    B = S.Ranks > S.Nodes ? std::min(B, S.InterBandwidth) : S.InterBandwidth;
  return B;
}

/// The row of NCCL's per-generation tables.
int generation(int Cc) { return Cc >= 90 ? 2 : Cc >= 80 ? 1 : 0; }

double llMaxBandwidth(const NcclSystem &S) {
  int Row = S.Nodes == 1 ? generation(S.ComputeCapability) : S.AmdCpu ? 1 : 0;
  int Col = S.Nodes <= 2 ? S.Nodes - 1 : 2;
  return LLMaxBandwidth[Row][Col] * GB;
}

/// NCCL enables LL128 by default only over NVLink between Volta, Ampere
/// and Hopper GPUs (tuning.cc: "other cases are not tested").
bool ll128ByDefault(const NcclSystem &S) {
  int Cc = S.ComputeCapability;
  return S.IntraNvlink && (Cc == 70 || Cc == 80 || Cc == 90);
}

struct Shape {
  double Steps = 0;      ///< NCCL's nsteps
  double InterSteps = 0; ///< of which cross a node boundary
  double BusFactor = 1;  ///< nccl-tests' bus-bandwidth factor
};

Shape shapeOf(NcclCollective C, const NcclSystem &S) {
  double N = S.Ranks, Nodes = S.Nodes;
  Shape R;
  switch (C) {
  case NcclCollective::AllReduce:
    R.Steps = 2 * (N - 1);
    R.InterSteps = Nodes > 1 ? 2 * (Nodes - 1) : 0;
    R.BusFactor = 2 * (N - 1) / N;
    break;
  case NcclCollective::AllGather:
  case NcclCollective::ReduceScatter:
    R.Steps = N - 1;
    R.InterSteps = Nodes - 1;
    R.BusFactor = (N - 1) / N;
    break;
  case NcclCollective::Broadcast:
  case NcclCollective::Reduce:
    R.Steps = N;
    R.InterSteps = Nodes - 1;
    R.BusFactor = 1;
    break;
  }
  return R;
}

/// \p Bw as protocol \p P's data moves it: LL carries 8 data bytes in 16,
/// LL128 120 in 128 (tuning.cc: 0.92), Simple all.
double protocolBandwidth(int P, double Bw) {
  return P == LL ? Bw * .5 : P == LL128 ? Bw * 0.92 : Bw;
}

/// Seconds of the ring with protocol \p P; <0 if not applicable. Like the
/// tree's and NVLS's, it sets \p Out's bus bandwidth, latency and link bytes.
double ringTime(NcclCollective C, double Bytes, const NcclSystem &S, int P,
                NcclEstimate &Out) {
  Shape Sh = shapeOf(C, S);
  double Bus = protocolBandwidth(P, busBandwidth(S));
  if (P == LL)
    Bus = std::min(llMaxBandwidth(S), Bus);
  Out.BusBandwidth = Bus;
  // Each GPU forwards its steps' shares of the buffer to the next.
  Out.LinkBytes = Bytes * Sh.Steps / S.Ranks;
  int IntraHw = S.IntraNvlink ? 0 : 1;
  int Hw = S.Nodes == 1 ? IntraHw : 2;
  double Lat = BaseLatency[Ring][P];
  if (C == NcclCollective::Broadcast || C == NcclCollective::Reduce) {
    // NCCL's rings of a broadcast use different channels: a chunk's
    // latency per step (Simple's is the tree's, "waiting for proper chunk
    // modeling").
    Lat += Sh.Steps * HopLatency[Hw][P == Simple ? Tree : Ring][P];
  } else {
    double IntraLat = HopLatency[IntraHw][Ring][P];
    if (S.Nodes > 1) {
      // getNetOverhead: 1 us on Intel hosts, 2 on AMD's; Simple x 3.
      double Overhead = (S.AmdCpu ? 2.0 : 1.0) * (P == Simple ? 3 : 1);
      IntraLat = std::max(IntraLat, Overhead);
    }
    double InterLat =
        (S.Ranks == S.Nodes ? HopLatency[2][Tree][P] : HopLatency[2][Ring][P]);
    Lat += (Sh.Steps - Sh.InterSteps) * IntraLat + Sh.InterSteps * InterLat;
    // "Plateau effect of ring" (ncclTopoGetAlgoTime).
    if (P == Simple && S.Nodes > 1 && C == NcclCollective::AllReduce &&
        Bytes / (MaxChannels * S.Ranks) >= 64)
      Lat *= S.ComputeCapability < 80 ? 1.9 : 1.4;
  }
  double AlgBw = Bus * S.Ranks / Sh.Steps;
  Out.Latency = Lat * Us;
  return Out.Latency + (AlgBw > 0 ? Bytes / AlgBw : 0);
}

/// Seconds of the tree (AllReduce only); <0 if not applicable.
double treeTime(NcclCollective C, double Bytes, const NcclSystem &S, int P,
                NcclEstimate &Out) {
  if (C != NcclCollective::AllReduce)
    return -1;
  double Bus = busBandwidth(S) * .92;
  if (P == LL)
    Bus = std::min(Bus / 3.8, llMaxBandwidth(S));
  else if (P == LL128)
    Bus *= S.Nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0;
  double AlgBw = Bus * .5;
  int Log = log2i(std::floor(Bytes / 64));
  if (Bytes >= 64 && Log < 23)
    AlgBw *= TreeCorrection[P][Log];
  Out.BusBandwidth = AlgBw * shapeOf(C, S).BusFactor;
  // Reduced up the tree and broadcast down it: the buffer once each way
  // through a GPU in the middle (a chain inside a node).
  Out.LinkBytes = Bytes * shapeOf(C, S).BusFactor;
  int IntraHw = S.IntraNvlink ? 0 : 1;
  double PerNode = std::floor(double(S.Ranks) / S.Nodes);
  double Lat =
      BaseLatency[Tree][P] + 2 * ((PerNode - 1) * HopLatency[IntraHw][Tree][P] +
                                  log2i(S.Nodes) * HopLatency[2][Tree][P]);
  Out.Latency = Lat * Us;
  return Out.Latency + (AlgBw > 0 ? Bytes / AlgBw : 0);
}

/// Seconds of NVLink SHARP (AllReduce in one node of NVLS switches, Simple
/// only); <0 if not applicable. Each GPU reduces 1/n of the buffer in the
/// switches (multimem loads: it sends its whole buffer, 1/n to each
/// reducer, and receives its reduced part) and multicasts that part to all
/// (it sends 1/n and receives all others' parts): (n + 1)/n of the buffer
/// each way on its links, at NCCL's NVLS efficiency.
double nvlsTime(NcclCollective C, double Bytes, const NcclSystem &S, int P,
                NcclEstimate &Out) {
  if (C != NcclCollective::AllReduce || !S.Nvls || S.Nodes > 1 || P != Simple)
    return -1;
  double N = S.Ranks;
  double AlgBw = S.IntraBandwidth * NvlsEfficiency * N / (N + 1);
  Out.BusBandwidth = AlgBw * shapeOf(C, S).BusFactor;
  Out.LinkBytes = Bytes * (N + 1) / N;
  Out.Latency = NvlsLatency * Us;
  return Out.Latency + (AlgBw > 0 ? Bytes / AlgBw : 0);
}

bool protocolEnabled(const NcclSelection &Sel, const NcclSystem &S, int P) {
  if (!Sel.Protocols[P])
    return false;
  return P != LL128 || Sel.ForceLL128 || ll128ByDefault(S);
}

NcclEstimate fastest(NcclCollective C, double Bytes, const NcclSystem &S,
                     const NcclSelection &Sel, bool AnyAlgorithm) {
  NcclEstimate Best;
  Best.Seconds = std::numeric_limits<double>::infinity();
  for (int A : {Tree, Ring, Nvls}) {
    if (!AnyAlgorithm && !Sel.Algorithms[A])
      continue;
    for (int P : {LL, LL128, Simple}) {
      if (!protocolEnabled(Sel, S, P))
        continue;
      NcclEstimate X;
      X.Algorithm = static_cast<NcclAlgorithm>(A);
      X.Protocol = static_cast<NcclProtocol>(P);
      X.Seconds = A == Tree   ? treeTime(C, Bytes, S, P, X)
                  : A == Ring ? ringTime(C, Bytes, S, P, X)
                              : nvlsTime(C, Bytes, S, P, X);
      if (X.Seconds >= 0 && X.Seconds < Best.Seconds)
        Best = X;
    }
  }
  return Best;
}

} // namespace

std::string_view ncclAlgorithmName(NcclAlgorithm A) {
  return AlgorithmNames[static_cast<int>(A)];
}

std::string_view ncclProtocolName(NcclProtocol P) {
  return ProtocolNames[static_cast<int>(P)];
}

bool NcclSelection::setAlgorithms(std::string_view Spec, std::string &Error) {
  std::array<bool, 3> A{};
  std::vector<std::string_view> Others(std::begin(OtherAlgorithms),
                                       std::end(OtherAlgorithms));
  if (!parseList(Spec, AlgorithmNames, Others, A, Error))
    return false;
  Algorithms = A;
  return true;
}

bool NcclSelection::setProtocols(std::string_view Spec, std::string &Error) {
  std::array<bool, 3> P{};
  if (!parseList(Spec, ProtocolNames, {}, P, Error))
    return false;
  Protocols = P;
  ForceLL128 = P[LL128];
  return true;
}

NcclSystem NcclSystem::of(const Machine &M, int Ranks, int Nodes) {
  NcclSystem S;
  S.Ranks = std::max(1, Ranks);
  S.Nodes = std::clamp(Nodes, 1, S.Ranks);
  // "sm_90" -> 90.
  const std::string &Arch = M.Gpu.Arch;
  size_t Digits = Arch.find_first_of("0123456789");
  if (Digits != std::string::npos)
    S.ComputeCapability = std::atoi(Arch.c_str() + Digits);
  S.AmdCpu = lower(M.Node.Cpu.Model).find("amd") != std::string::npos;
  const PeerLinks &Peer = M.Node.Peer;
  int Gpus = std::max(1, static_cast<int>(M.Node.Gpus.Value));
  bool Switch = Peer.Topology == PeerTopology::Switch;
  if (Peer.Kind == PeerLinkKind::None || Peer.Bandwidth.Value <= 0) {
    // No peer links: through host memory over PCIe.
    S.IntraBandwidth = std::min(M.Node.Pcie.H2DBandwidth.Value,
                                M.Node.Pcie.D2HBandwidth.Value);
    S.IntraNvlink = false;
    S.PeerBandwidth = S.IntraBandwidth;
  } else if (Peer.Kind == PeerLinkKind::NVLink && Peer.Links.Value > 0) {
    // NCCL's own bandwidth of one NVLink by GPU generation (topo.h
    // SM60_NVLINK_BW ... SM90_NVLINK_BW, GB/s), times the GPU's links.
    int Cc = S.ComputeCapability;
    double PerLink = Cc >= 90 ? 20.6 : Cc == 86 ? 12.0 : Cc >= 70 ? 20.0 : 18.0;
    S.IntraBandwidth = Peer.Links.Value * PerLink * GB;
    S.PeerBandwidth =
        Switch ? S.IntraBandwidth : S.IntraBandwidth / std::max(1, Gpus - 1);
    S.Nvls = Switch && Peer.Nvls && Cc >= 90;
  } else {
    S.PeerBandwidth = Peer.Bandwidth.Value;
    // Fully connected: a ring per set of links, every peer link in use.
    S.IntraBandwidth = Switch ? Peer.Bandwidth.Value
                              : Peer.Bandwidth.Value * std::max(1, Gpus - 1);
    S.IntraNvlink = Peer.Kind == PeerLinkKind::NVLink;
    S.Nvls = Switch && Peer.Nvls && S.ComputeCapability >= 90 && S.IntraNvlink;
  }
  int Nics = static_cast<int>(M.Node.Nics.Value);
  if (Nics <= 0)
    Nics = Gpus;
  S.NicBandwidth = M.Network.Nic.Bandwidth.Value;
  S.InterBandwidth = S.NicBandwidth * Nics;
  return S;
}

NcclEstimate ncclCollectiveTime(NcclCollective C, double Bytes,
                                const NcclSystem &S, const NcclSelection &Sel) {
  if (S.Ranks <= 1) {
    // One rank: a copy at most, NCCL's base latency.
    NcclEstimate E;
    E.Protocol = NcclProtocol::LL;
    E.Seconds = E.Latency = BaseLatency[Ring][LL] * Us;
    return E;
  }
  NcclEstimate E = fastest(C, Bytes, S, Sel, false);
  // NCCL_ALGO left nothing for this collective (NCCL falls back as well).
  if (!std::isfinite(E.Seconds))
    E = fastest(C, Bytes, S, Sel, true);
  return E;
}

NcclEstimate ncclPointToPointTime(double Bytes, bool SameNode,
                                  const NcclSystem &S,
                                  const NcclSelection &Sel) {
  double Bw = SameNode ? S.PeerBandwidth : S.NicBandwidth;
  int Hw = SameNode ? (S.IntraNvlink ? 0 : 1) : 2;
  NcclEstimate Best;
  Best.Seconds = std::numeric_limits<double>::infinity();
  for (int P : {LL, LL128, Simple}) {
    if (!protocolEnabled(Sel, S, P))
      continue;
    double B = protocolBandwidth(P, Bw);
    double Lat = (BaseLatency[Ring][P] + HopLatency[Hw][Ring][P]) * Us;
    double T = Lat + (B > 0 ? Bytes / B : 0);
    if (T < Best.Seconds) {
      Best.Seconds = T;
      Best.Protocol = static_cast<NcclProtocol>(P);
      Best.BusBandwidth = B;
      Best.Latency = Lat;
    }
  }
  if (!std::isfinite(Best.Seconds)) {
    Best.Latency =
        (BaseLatency[Ring][Simple] + HopLatency[Hw][Ring][Simple]) * Us;
    Best.Seconds = Best.Latency + (Bw > 0 ? Bytes / Bw : 0);
    Best.BusBandwidth = Bw;
  }
  Best.LinkBytes = Bytes;
  return Best;
}

} // namespace orrery::models
