//===- Transport.cpp - Transport selection --------------------------------===//
//
// Rules, in order (docs/cost-model.md, "Transport selection"):
//  1. A host buffer has no device leg.
//  2. Both buffers on one GPU: one device-local copy, no network payload.
//  3. Both device buffers on one node with peer access: one peer copy
//     (NVLink or PCIe P2P), no network payload.
//  4. A device buffer talking to another node: GPUDirect RDMA if the NIC
//     supports it, else host staging.
//  5. Anything else with a device buffer (same node without peer access, or
//     a host buffer on the other side): host staging.
//
//===----------------------------------------------------------------------===//

#include "orrery/models/Transport.h"

#include "orrery/models/CommParams.h"

namespace orrery::models {

std::string_view legKindName(LegKind K) {
  switch (K) {
  case LegKind::HostResident:
    return "host-resident";
  case LegKind::HostStaging:
    return "host staging";
  case LegKind::GpuDirectRdma:
    return "GPUDirect RDMA";
  case LegKind::Peer:
    return "peer";
  case LegKind::DeviceLocal:
    return "device-local";
  case LegKind::None:
    return "none";
  }
  return "?";
}

std::string_view localityName(Locality L) {
  switch (L) {
  case Locality::SameGpu:
    return "same GPU";
  case Locality::SameNode:
    return "same node";
  case Locality::OtherNode:
    return "other node";
  }
  return "?";
}

std::string TransportChoice::str() const {
  return std::string(localityName(Where)) + ": send leg " +
         std::string(legKindName(SendLeg)) + ", receive leg " +
         std::string(legKindName(RecvLeg)) +
         (PayloadOnNetwork ? ", payload on the network"
                           : ", no payload on the network");
}

Locality locality(const Endpoint &A, const Endpoint &B) {
  if (A.Node != B.Node)
    return Locality::OtherNode;
  return A.Gpu == B.Gpu ? Locality::SameGpu : Locality::SameNode;
}

TransportChoice selectTransport(const CommParams &P, const Endpoint &Send,
                                const Endpoint &Recv) {
  TransportChoice T;
  T.Where = locality(Send, Recv);
  bool SendDev = Send.Space == MemorySpace::Device;
  bool RecvDev = Recv.Space == MemorySpace::Device;

  if (SendDev && RecvDev && T.Where == Locality::SameGpu) {
    T.SendLeg = LegKind::DeviceLocal;
    T.RecvLeg = LegKind::None;
    T.PayloadOnNetwork = false;
    return T;
  }
  if (SendDev && RecvDev && T.Where == Locality::SameNode && P.PeerAccess) {
    T.SendLeg = LegKind::Peer;
    T.RecvLeg = LegKind::None;
    T.PayloadOnNetwork = false;
    return T;
  }
  auto LegFor = [&](bool Device) {
    if (!Device)
      return LegKind::HostResident;
    if (T.Where == Locality::OtherNode && P.GpuDirectRdma)
      return LegKind::GpuDirectRdma;
    return LegKind::HostStaging;
  };
  T.SendLeg = LegFor(SendDev);
  T.RecvLeg = LegFor(RecvDev);
  T.PayloadOnNetwork = true;
  return T;
}

} // namespace orrery::models
