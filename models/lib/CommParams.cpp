//===- CommParams.cpp - Communication parameters from a machine -----------===//

#include "orrery/models/CommParams.h"

namespace orrery::models {

CommParams CommParams::fromMachine(const Machine &M) {
  CommParams P;
  const NodeModel &N = M.Node;
  P.H2D = {N.Pcie.Latency.Value, N.Pcie.H2DBandwidth.Value};
  P.D2H = {N.Pcie.Latency.Value, N.Pcie.D2HBandwidth.Value};
  P.PeerAccess = N.Peer.Kind != PeerLinkKind::None;
  if (P.PeerAccess)
    P.Peer = {N.Peer.Latency.Value, N.Peer.Bandwidth.Value};
  // A copy inside one GPU reads and writes every byte: half the achievable
  // memory bandwidth moves payload.
  P.DeviceLocal = {M.Gpu.MemoryLatency.Value,
                   M.Gpu.MemoryBandwidth.Value * M.Gpu.MemoryEfficiency.Value /
                       2};
  P.AlphaGdr = M.Network.Nic.AlphaGdr.Value;
  P.GpuDirectRdma = M.Network.Nic.GpuDirectRdma;
  P.ReductionBandwidth = N.ReductionBandwidth.Value;
  P.CallHost = M.Mpi.CallOverheadHost.Value;
  P.CallDevice = M.Mpi.CallOverheadDevice.Value;
  P.CopyCallOverhead = N.Pcie.CallOverhead.Value;
  P.HostBounce = M.Mpi.HostBounce;
  return P;
}

} // namespace orrery::models
