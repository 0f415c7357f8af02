//===- CommCost.cpp - The paper's communication equations -----------------===//

#include "orrery/models/CommCost.h"

#include <algorithm>

namespace orrery::models {

Cost deviceLeg(const CommParams &P, LegKind K, double Bytes) {
  switch (K) {
  case LegKind::HostStaging:
    return Cost(CostCategory::DeviceLeg, P.D2H.time(Bytes) + P.H2D.time(Bytes),
                P.D2H.Estimate || P.H2D.Estimate);
  case LegKind::GpuDirectRdma:
    return Cost(CostCategory::DeviceLeg, P.AlphaGdr, P.Estimates.AlphaGdr);
  case LegKind::Peer:
    return Cost(CostCategory::DeviceLeg, P.Peer.time(Bytes), P.Peer.Estimate);
  case LegKind::DeviceLocal:
    return Cost(CostCategory::DeviceLeg, P.DeviceLocal.time(Bytes),
                P.DeviceLocal.Estimate);
  case LegKind::HostResident:
  case LegKind::None:
    return Cost();
  }
  return Cost();
}

Cost memcpyCost(const CommParams &P, CopyKind K, double Bytes) {
  Cost C(CostCategory::CallOverhead, P.CopyCallOverhead,
         P.Estimates.CopyCallOverhead);
  switch (K) {
  case CopyKind::HostToDevice:
    return C.add(CostCategory::DeviceLeg, P.H2D.time(Bytes), P.H2D.Estimate);
  case CopyKind::DeviceToHost:
    return C.add(CostCategory::DeviceLeg, P.D2H.time(Bytes), P.D2H.Estimate);
  case CopyKind::DeviceToDevice:
    return C += deviceLeg(P, LegKind::DeviceLocal, Bytes);
  case CopyKind::PeerToPeer:
    // Without peer access the driver stages through host memory.
    return C += deviceLeg(
               P, P.PeerAccess ? LegKind::Peer : LegKind::HostStaging, Bytes);
  }
  return C;
}

Cost p2pCost(const CommParams &P, const TransportChoice &T, double SendBytes,
             double RecvBytes, double NetTime) {
  Cost C = deviceLeg(P, T.SendLeg, SendBytes);
  C += deviceLeg(P, T.RecvLeg, RecvBytes);
  C.add(CostCategory::Network, NetTime);
  return C;
}

bool bouncesThroughHost(const CommParams &P, const CollectiveCall &C) {
  return C.Space == MemorySpace::Device && P.HostBounce.count(C.Op) != 0;
}

/// The same rules as selectTransport for a pair at the communicator's span.
LegKind collectiveLeg(const CommParams &P, const CollectiveCall &C) {
  if (C.Space == MemorySpace::Host)
    return LegKind::HostResident;
  switch (C.Span) {
  case Locality::SameGpu:
    return LegKind::DeviceLocal;
  case Locality::SameNode:
    return P.PeerAccess ? LegKind::Peer : LegKind::HostStaging;
  case Locality::OtherNode:
    return P.GpuDirectRdma ? LegKind::GpuDirectRdma : LegKind::HostStaging;
  }
  return LegKind::HostStaging;
}

Cost collectiveCost(const CommParams &P, const CollectiveCall &C,
                    double NetTime) {
  Cost Out;
  if (bouncesThroughHost(P, C)) {
    // Open MPI coll/cuda: copy send and receive buffers to the host, run the
    // host collective, copy the result back. With n_s == n_r == n this is the
    // paper's 2 t_d2h(n) + t_h2d(n).
    Out.add(CostCategory::HostBounce,
            P.D2H.time(C.SendBytes) + P.D2H.time(C.RecvBytes) +
                P.H2D.time(C.RecvBytes),
            P.D2H.Estimate || P.H2D.Estimate);
    Out.add(CostCategory::Reduction,
            std::max(C.SendBytes, C.RecvBytes) / P.ReductionBandwidth,
            P.Estimates.ReductionBandwidth);
    Out.add(CostCategory::CallOverhead, P.CallDevice, P.Estimates.CallDevice);
  } else {
    LegKind K = collectiveLeg(P, C);
    // A buffer the call does not have (barrier, a root-only side) pays no leg.
    if (C.SendBytes > 0)
      Out += deviceLeg(P, K, C.SendBytes);
    if (C.RecvBytes > 0)
      Out += deviceLeg(P, K, C.RecvBytes);
    bool Dev = C.Space == MemorySpace::Device;
    Out.add(CostCategory::CallOverhead, Dev ? P.CallDevice : P.CallHost,
            Dev ? P.Estimates.CallDevice : P.Estimates.CallHost);
  }
  Out.add(CostCategory::Network, NetTime);
  return Out;
}

double blockingCollectiveBound(Collective C, int Ranks, double Bytes,
                               const Hockney &Widest) {
  if (Ranks < 2 || Widest.Bandwidth <= 0)
    return 0;
  int Rounds = 1;
  if (C != Collective::Alltoall)
    while ((1 << Rounds) < Ranks)
      ++Rounds;
  return Rounds * Widest.Latency + Bytes / Widest.Bandwidth;
}

} // namespace orrery::models
