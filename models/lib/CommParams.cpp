//===- CommParams.cpp - Communication parameters from a machine -----------===//

#include "orrery/models/CommParams.h"

namespace orrery::models {
namespace {

bool est(const Quantity &Q) { return Q.Kind == ValueKind::Estimate; }

} // namespace

CommParams CommParams::fromMachine(const Machine &M) {
  CommParams P;
  const NodeModel &N = M.Node;
  P.H2D = {N.Pcie.Latency.Value, N.Pcie.H2DBandwidth.Value,
           est(N.Pcie.Latency) || est(N.Pcie.H2DBandwidth)};
  P.D2H = {N.Pcie.Latency.Value, N.Pcie.D2HBandwidth.Value,
           est(N.Pcie.Latency) || est(N.Pcie.D2HBandwidth)};
  P.PeerAccess = N.Peer.Kind != PeerLinkKind::None;
  if (P.PeerAccess)
    P.Peer = {N.Peer.Latency.Value, N.Peer.Bandwidth.Value,
              est(N.Peer.Latency) || est(N.Peer.Bandwidth)};
  // A copy inside one GPU reads and writes every byte: half the achievable
  // memory bandwidth moves payload.
  const GpuModel &G = M.Gpu;
  P.DeviceLocal = {G.MemoryLatency.Value,
                   G.MemoryBandwidth.Value * G.MemoryEfficiency.Value / 2,
                   est(G.MemoryLatency) || est(G.MemoryBandwidth) ||
                       est(G.MemoryEfficiency)};
  P.AlphaGdr = M.Network.Nic.AlphaGdr.Value;
  P.GpuDirectRdma = M.Network.Nic.GpuDirectRdma;
  P.ReductionBandwidth = N.ReductionBandwidth.Value;
  P.CallHost = M.Mpi.CallOverheadHost.Value;
  P.CallDevice = M.Mpi.CallOverheadDevice.Value;
  P.CopyCallOverhead = N.Pcie.CallOverhead.Value;
  P.HostBounce = M.Mpi.HostBounce;
  P.Estimates.AlphaGdr = est(M.Network.Nic.AlphaGdr);
  P.Estimates.ReductionBandwidth = est(N.ReductionBandwidth);
  P.Estimates.CallHost = est(M.Mpi.CallOverheadHost);
  P.Estimates.CallDevice = est(M.Mpi.CallOverheadDevice);
  P.Estimates.CopyCallOverhead = est(N.Pcie.CallOverhead);
  return P;
}

} // namespace orrery::models
