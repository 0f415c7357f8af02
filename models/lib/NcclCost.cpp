//===- NcclCost.cpp - Time of an NCCL collective or point-to-point --------===//

#include "orrery/models/NcclCost.h"
#include "orrery/models/Machine.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <string>

namespace orrery::models {

namespace {

constexpr double Us = 1e-6;
constexpr std::array<NcclProtocol, 3> Protocols = {
    NcclProtocol::LL, NcclProtocol::LL128, NcclProtocol::Simple};

// NVIDIA/nccl src/graph/tuning.cc (2.18), ring algorithm, by protocol
// (LL, LL128, Simple), microseconds.
constexpr double BaseLatency[3] = {6.6, 14.0, 8.4};
constexpr double NvlinkStep[3] = {0.6, 1.9, 3.4};
constexpr double PcieStep[3] = {1.0, 2.5, 5.7};
constexpr double NetworkStep[3] = {2.7, 4.0, 14.0};
/// Data bytes per wire byte: LL sends 8 bytes of data with 8 of flags,
/// LL128 120 of 128.
constexpr double BandwidthRatio[3] = {0.5, 120.0 / 128.0, 1.0};

int index(NcclProtocol P) { return static_cast<int>(P); }

/// Steps around the ring, and the bytes each GPU sends per byte of the
/// collective's size (nccl-tests' bus-bandwidth factor).
void shape(NcclCollective C, int N, double &Steps, double &BusFactor) {
  double Nd = N;
  switch (C) {
  case NcclCollective::AllReduce:
    Steps = 2 * (Nd - 1);
    BusFactor = 2 * (Nd - 1) / Nd;
    return;
  case NcclCollective::AllGather:
  case NcclCollective::ReduceScatter:
    Steps = Nd - 1;
    BusFactor = (Nd - 1) / Nd;
    return;
  case NcclCollective::Broadcast:
  case NcclCollective::Reduce:
    Steps = Nd - 1; // pipelined: the data crosses each hop once
    BusFactor = 1;
    return;
  }
}

double busBandwidth(const NcclRing &R) {
  double B = R.IntraBandwidth;
  if (R.Nodes > 1)
    B = R.Ranks > R.Nodes ? std::min(B, R.InterBandwidth) : R.InterBandwidth;
  return B;
}

NcclEstimate pick(std::optional<NcclProtocol> Force, double Bytes, double Bus,
                  double BusFactor, double IntraSteps, double InterSteps,
                  bool Nvlink) {
  NcclEstimate Best;
  Best.Seconds = std::numeric_limits<double>::infinity();
  for (NcclProtocol P : Protocols) {
    if (Force && *Force != P)
      continue;
    int I = index(P);
    double Latency = BaseLatency[I] +
                     IntraSteps * (Nvlink ? NvlinkStep[I] : PcieStep[I]) +
                     InterSteps * NetworkStep[I];
    double Bw = Bus * BandwidthRatio[I];
    double T = Latency * Us + (Bw > 0 ? Bytes * BusFactor / Bw : 0);
    if (T < Best.Seconds) {
      Best.Seconds = T;
      Best.Protocol = P;
      Best.BusBandwidth = Bw;
    }
  }
  return Best;
}

} // namespace

std::string_view ncclProtocolName(NcclProtocol P) {
  switch (P) {
  case NcclProtocol::LL:
    return "LL";
  case NcclProtocol::LL128:
    return "LL128";
  case NcclProtocol::Simple:
    return "Simple";
  }
  return "Simple";
}

std::optional<NcclProtocol> parseNcclProtocol(std::string_view Name) {
  std::string L;
  for (char C : Name)
    L += static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  for (NcclProtocol P : Protocols) {
    std::string N;
    for (char C : ncclProtocolName(P))
      N += static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
    if (N == L)
      return P;
  }
  return std::nullopt;
}

NcclRing NcclRing::of(const Machine &M, int Ranks, int Nodes) {
  NcclRing R;
  R.Ranks = std::max(1, Ranks);
  R.Nodes = std::clamp(Nodes, 1, R.Ranks);
  const PeerLinks &Peer = M.Node.Peer;
  int Gpus = std::max(1, static_cast<int>(M.Node.Gpus.Value));
  if (Peer.Kind == PeerLinkKind::None || Peer.Bandwidth.Value <= 0) {
    // No peer links: through host memory over PCIe.
    R.IntraBandwidth = std::min(M.Node.Pcie.H2DBandwidth.Value,
                                M.Node.Pcie.D2HBandwidth.Value);
    R.IntraNvlink = false;
    R.PeerBandwidth = R.IntraBandwidth;
  } else {
    R.PeerBandwidth = Peer.Bandwidth.Value;
    // Fully connected: a ring per set of links, every peer link in use.
    R.IntraBandwidth = Peer.Topology == PeerTopology::FullyConnected
                           ? Peer.Bandwidth.Value * std::max(1, Gpus - 1)
                           : Peer.Bandwidth.Value;
    R.IntraNvlink = Peer.Kind == PeerLinkKind::NVLink;
  }
  int Nics = static_cast<int>(M.Node.Nics.Value);
  if (Nics <= 0)
    Nics = Gpus;
  R.NicBandwidth = M.Network.Nic.Bandwidth.Value;
  R.InterBandwidth = R.NicBandwidth * Nics;
  return R;
}

NcclEstimate ncclCollectiveTime(NcclCollective C, double Bytes,
                                const NcclRing &R,
                                std::optional<NcclProtocol> Force) {
  double Steps = 0, BusFactor = 0;
  shape(C, R.Ranks, Steps, BusFactor);
  if (R.Ranks <= 1)
    return pick(Force, 0, busBandwidth(R), 0, 0, 0, R.IntraNvlink);
  // Steps that cross a node boundary: one hop per node on the ring.
  double InterSteps = 0;
  if (R.Nodes > 1)
    InterSteps = C == NcclCollective::AllReduce ? 2.0 * (R.Nodes - 1)
                                                : double(R.Nodes - 1);
  return pick(Force, Bytes, busBandwidth(R), BusFactor, Steps - InterSteps,
              InterSteps, R.IntraNvlink);
}

NcclEstimate ncclPointToPointTime(double Bytes, bool SameNode,
                                  const NcclRing &R,
                                  std::optional<NcclProtocol> Force) {
  double Bw = SameNode ? R.PeerBandwidth : R.NicBandwidth;
  return pick(Force, Bytes, Bw, 1, SameNode ? 1 : 0, SameNode ? 0 : 1,
              R.IntraNvlink);
}

} // namespace orrery::models
