//===- NcclCost.h - Time of an NCCL collective or point-to-point -*- C++
//-*-===//
//
// NCCL runs a collective as kernels that move data between the
// communicator's GPUs by one of several algorithms (a ring, a tree, NVLink
// SHARP in the switches) and one of three protocols (LL, LL128, Simple). Its
// tuner (NVIDIA/nccl src/graph/tuning.cc) estimates each pair as
//
//   time = latency(algorithm, protocol, hops) + bytes / bandwidth(...)
//
// and runs the fastest one enabled; this is that estimate, with NCCL
// 2.23.4's constants, over the links of the machine file. docs/nccl.md
// derives each formula and names the constants' lines.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_MODELS_NCCLCOST_H
#define ORRERY_MODELS_NCCLCOST_H

#include <array>
#include <string>
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
/// The algorithms modelled, in NCCL's order of its names.
enum class NcclAlgorithm { Tree, Ring, Nvls };
enum class NcclProtocol { LL, LL128, Simple };

/// "Tree", "Ring", "NVLS".
std::string_view ncclAlgorithmName(NcclAlgorithm A);
/// "LL", "LL128", "Simple".
std::string_view ncclProtocolName(NcclProtocol P);

/// What NCCL_ALGO and NCCL_PROTO leave enabled. Each is a comma-separated
/// list of names (case-insensitive) to enable, or to disable after a
/// leading '^', as NCCL reads them.
struct NcclSelection {
  std::array<bool, 3> Algorithms = {true, true, true};
  std::array<bool, 3> Protocols = {true, true, true};
  /// NCCL_PROTO named LL128 (NCCL enables it by default only on NVLink
  /// between Volta, Ampere or Hopper GPUs).
  bool ForceLL128 = false;

  /// Reads NCCL_ALGO's value; false with \p Error naming an unknown name.
  /// Names of algorithms NCCL has and Orrery does not model (CollNetDirect,
  /// CollNetChain, NVLSTree, PAT) are accepted and change nothing.
  bool setAlgorithms(std::string_view Spec, std::string &Error);
  /// Reads NCCL_PROTO's value; false with \p Error naming an unknown name.
  bool setProtocols(std::string_view Spec, std::string &Error);
};

/// The links and GPUs that NCCL's tuner sees for one communicator.
struct NcclSystem {
  int Ranks = 1;
  int Nodes = 1;
  /// Bytes/s one GPU sends to the others inside a node, all its links in
  /// use (NCCL lays one ring per link set).
  double IntraBandwidth = 0;
  /// Bytes/s a node sends to the next node (all its NICs).
  double InterBandwidth = 0;
  /// Bytes/s between two GPUs of a node (one peer link or switch port),
  /// and through one GPU's NIC: what a point-to-point transfer gets.
  double PeerBandwidth = 0, NicBandwidth = 0;
  bool IntraNvlink = true; ///< else PCIe: NCCL's PCI latencies
  /// Compute capability x 10 (80: A100, 90: H100), from gpu.arch.
  int ComputeCapability = 80;
  /// NVLink switches that reduce (NVLink SHARP): NCCL's NVLS algorithm.
  bool Nvls = false;
  /// The host CPUs are AMD's: NCCL's LL limits and network overhead differ.
  bool AmdCpu = false;

  /// The system of \p Ranks GPUs over \p Nodes nodes of \p M.
  static NcclSystem of(const Machine &M, int Ranks, int Nodes);
};

struct NcclEstimate {
  double Seconds = 0;
  NcclAlgorithm Algorithm = NcclAlgorithm::Ring;
  NcclProtocol Protocol = NcclProtocol::Simple;
  /// nccl-tests' bus bandwidth of this estimate (bytes/s), for the
  /// collectives; what the transfer ran at for a send/receive.
  double BusBandwidth = 0;
  /// Seconds of Seconds that do not depend on the bytes (NCCL's latency).
  double Latency = 0;
  /// Data bytes each GPU sends over its links (a ring: the buffer times
  /// its steps / ranks; a send: the message), in the rest of Seconds. The
  /// simulation runs them as flows lasting at least LinkBytes / linkRate(),
  /// so that other traffic on the same links slows them (docs/nccl.md,
  /// "Flows").
  double LinkBytes = 0;

  /// Bytes/s the link bytes move at when nothing else shares the links
  /// (0: none to move).
  double linkRate() const {
    double T = Seconds - Latency;
    return LinkBytes > 0 && T > 0 ? LinkBytes / T : 0;
  }
};

/// The time of collective \p C over \p S: \p Bytes is the size nccl-tests
/// names (the buffer of AllReduce, Broadcast and Reduce; the receive
/// buffer of AllGather; the send buffer of ReduceScatter). The fastest
/// (algorithm, protocol) pair \p Sel leaves, as NCCL's tuner picks.
NcclEstimate ncclCollectiveTime(NcclCollective C, double Bytes,
                                const NcclSystem &S,
                                const NcclSelection &Sel = {});

/// The time of one ncclSend/ncclRecv pair of \p Bytes between two GPUs of
/// one node (\p SameNode) or of two nodes: one hop of the ring.
NcclEstimate ncclPointToPointTime(double Bytes, bool SameNode,
                                  const NcclSystem &S,
                                  const NcclSelection &Sel = {});

} // namespace orrery::models

#endif
