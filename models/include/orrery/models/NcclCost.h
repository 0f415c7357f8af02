//===- NcclCost.h - Time of an NCCL collective or point-to-point -*- C++
//-*-===//
//
// NCCL runs a collective as kernels that move data around a ring of the
// communicator's GPUs in steps. Its own tuner estimates each (algorithm,
// protocol) pair as
//
//   latency = baseLat[protocol] + intraSteps x hwLat[link][protocol]
//                              + interSteps x hwLat[network][protocol]
//   time    = latency + bytes / algorithm bandwidth
//
// and picks the fastest; this is that estimate for the ring algorithm and
// its three protocols (LL, LL128, Simple), with NCCL's published latency
// constants (NVIDIA/nccl src/graph/tuning.cc, 2.18: base Ring {6.6, 14.0,
// 8.4} us; per-step Ring over NVLink {0.6, 1.9, 3.4}, PCIe {1.0, 2.5, 5.7},
// network {2.7, 4.0, 14.0} us) and bandwidth ratios (LL carries 8 data
// bytes in 16, LL128 120 in 128). The ring's bus bandwidth is the slowest
// hop's: inside a node the GPU's peer links (every peer link of a fully
// connected node: NCCL lays one ring per link set), across nodes the
// node's NICs together. docs/nccl.md derives each formula.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_MODELS_NCCLCOST_H
#define ORRERY_MODELS_NCCLCOST_H

#include <optional>
#include <string_view>

namespace orrery::models {

struct Machine;

enum class NcclCollective {
  AllReduce,
  Broadcast,
  Reduce,
  AllGather,
  ReduceScatter
};
enum class NcclProtocol { LL, LL128, Simple };

/// "LL", "LL128", "Simple".
std::string_view ncclProtocolName(NcclProtocol P);
/// Parses a protocol name (case-insensitive), as NCCL_PROTO gives it.
std::optional<NcclProtocol> parseNcclProtocol(std::string_view Name);

/// The links a communicator's ring crosses.
struct NcclRing {
  int Ranks = 1;
  int Nodes = 1;
  /// Bytes/s one GPU sends to the next inside a node (all rings together).
  double IntraBandwidth = 0;
  /// Bytes/s a node sends to the next node (all its NICs).
  double InterBandwidth = 0;
  /// Bytes/s between two GPUs of a node (one peer link or switch port),
  /// and through one GPU's NIC: what a point-to-point transfer gets.
  double PeerBandwidth = 0, NicBandwidth = 0;
  bool IntraNvlink = true; ///< else PCIe: NCCL's PCI latencies

  /// The ring of \p Ranks GPUs over \p Nodes nodes of \p M.
  static NcclRing of(const Machine &M, int Ranks, int Nodes);
};

struct NcclEstimate {
  double Seconds = 0;
  NcclProtocol Protocol = NcclProtocol::Simple;
  /// The bus bandwidth the estimate ran at (bytes/s), as nccl-tests
  /// reports it: the same for every collective on one ring.
  double BusBandwidth = 0;
};

/// The time of collective \p C over ring \p R: \p Bytes is the size
/// nccl-tests names (the buffer of AllReduce, Broadcast and Reduce; the
/// receive buffer of AllGather; the send buffer of ReduceScatter). With
/// \p Force, that protocol; else the fastest, as NCCL's tuner picks.
NcclEstimate ncclCollectiveTime(NcclCollective C, double Bytes,
                                const NcclRing &R,
                                std::optional<NcclProtocol> Force = {});

/// The time of one ncclSend/ncclRecv pair of \p Bytes between two GPUs of
/// one node (\p SameNode) or of two nodes: one step of the ring's hop.
NcclEstimate ncclPointToPointTime(double Bytes, bool SameNode,
                                  const NcclRing &R,
                                  std::optional<NcclProtocol> Force = {});

} // namespace orrery::models

#endif
