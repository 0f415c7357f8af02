//===- Transport.h - Which path a message takes -----------------*- C++ -*-===//
//
// Given where two buffers live (host or device memory, which GPU of which
// node) and what the machine can do (peer access, GPUDirect RDMA), decide the
// device leg charged on each side and whether the payload crosses the
// network that SimGrid simulates.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_TRANSPORT_H
#define ORRERY_MODELS_TRANSPORT_H

#include <string>
#include <string_view>

namespace orrery::models {

struct CommParams;

enum class MemorySpace { Host, Device };

/// A buffer and the rank that owns it: node index, the GPU the rank is bound
/// to (its device buffers live there) and the buffer's memory space.
struct Endpoint {
  int Node = 0;
  int Gpu = 0;
  MemorySpace Space = MemorySpace::Host;
};

enum class Locality { SameGpu, SameNode, OtherNode };

/// The device leg t_leg of one side (paper Eq. 1), plus two cases the paper
/// does not name: DeviceLocal (both buffers on one GPU: one copy in device
/// memory) and None (the other side's leg already moved the data).
enum class LegKind {
  HostResident,  ///< 0: the buffer is in host memory
  HostStaging,   ///< t_d2h(n) + t_h2d(n)
  GpuDirectRdma, ///< alpha_gdr
  Peer,          ///< t_peer(n)
  DeviceLocal,   ///< n / local copy bandwidth
  None,          ///< 0: covered by the other side
};

std::string_view legKindName(LegKind K);
std::string_view localityName(Locality L);

struct TransportChoice {
  Locality Where = Locality::OtherNode;
  LegKind SendLeg = LegKind::HostResident;
  LegKind RecvLeg = LegKind::HostResident;
  /// False when a peer or local copy moves the payload: the MPI message then
  /// carries no payload through the simulated network.
  bool PayloadOnNetwork = true;

  std::string str() const;
};

Locality locality(const Endpoint &A, const Endpoint &B);

/// Selects the transport for a message from \p Send to \p Recv.
TransportChoice selectTransport(const CommParams &P, const Endpoint &Send,
                                const Endpoint &Recv);

} // namespace orrery::models

#endif // ORRERY_MODELS_TRANSPORT_H
