//===- Messages.h - Point-to-point messages in flight -----------*- C++ -*-===//
//
// All ranks live in one process, so a receive can learn where its message
// came from: the sender posts each instrumented point-to-point message here
// (its buffer's endpoint, size, start time and call site) and the receiver
// matches it once the receive has completed. The receiver then knows the
// sender's real buffer location (device or host, which GPU) and
//  - pulls the payload of a GPUDirect RDMA message as a flow from the
//    sender's GPU to its own buffer (docs/cost-model.md, "Latency
//    composition");
//  - checks the message against physics: no transfer may complete faster
//    than its route's latency plus bytes over its bottleneck bandwidth.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_MESSAGES_H
#define ORRERY_SIM_MESSAGES_H

#include "orrery/hooks.h"
#include "orrery/models/Transport.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace simgrid::s4u {
class Host;
}

namespace orrery::sim {

/// A tag or communicator the matching does not know: it matches any (a
/// receive's MPI_ANY_TAG, or a call whose tag was not annotated).
constexpr int AnyTag = -1;
constexpr std::uint64_t AnyComm = 0;

/// What MPI matches a receive to a message by, besides the destination.
struct MatchKey {
  int Src = -1;                 ///< world rank; negative: MPI_ANY_SOURCE
  int Tag = AnyTag;             ///< MPI_ANY_TAG or unknown: any
  std::uint64_t Comm = AnyComm; ///< communicatorKey(); unknown: any
};

/// The same number on every rank for one communicator: a hash of its
/// members' world ranks in order (never AnyComm). Two communicators with the
/// same members in the same order (MPI_Comm_dup) share it.
std::uint64_t communicatorKey(const std::vector<int> &WorldRanks);

struct SentMessage {
  int Src = 0, Dst = 0; ///< world ranks
  int Tag = AnyTag;
  std::uint64_t Comm = AnyComm;
  double Bytes = 0;
  models::Endpoint From; ///< the send buffer
  double Start = 0;      ///< simulated time the send began
  bool Pull = false;     ///< the receiver moves the payload (GPUDirect)
  simgrid::s4u::Host *SrcCpu = nullptr;   ///< the sender's host
  simgrid::s4u::Host *DataFrom = nullptr; ///< where the payload starts
  /// Where the payload goes (null: nowhere, it stays on one GPU).
  simgrid::s4u::Host *DataTo = nullptr;
  const orrery_site *Site = nullptr;
};

/// Records a message the calling rank starts sending.
void postMessage(const SentMessage &M);
/// The oldest message to \p Dst that \p K matches (source, tag and
/// communicator, as MPI matches them; an unknown side matches any) of at
/// most \p Bytes, removed from the registry; none if it was not posted (a
/// send outside instrumented code, or a receive that has not completed).
std::optional<SentMessage> matchMessage(const MatchKey &K, int Dst,
                                        double Bytes);
/// The same by source only (any tag, any communicator).
inline std::optional<SentMessage> matchMessage(int Src, int Dst, double Bytes) {
  return matchMessage(MatchKey{Src, AnyTag, AnyComm}, Dst, Bytes);
}

struct RouteFigures {
  double Latency = 0;   ///< sum of the links' latencies
  double Bandwidth = 0; ///< the narrowest link's (infinite: no route)
};
/// The route from \p From to \p To as the platform declares it, without
/// SMPI's network factors but in the shared-memory size band of a message of
/// \p Bytes; a null host or a host to itself has no route.
RouteFigures routeOf(simgrid::s4u::Host *From, simgrid::s4u::Host *To,
                     double Bytes);

/// Warns (in the report, once per call site) when a message of \p Bytes
/// took \p Seconds, less than \p Bound: a defect of the model, not of the
/// program.
void checkPhysicalBound(const orrery_site *Site, double Bytes, double Seconds,
                        double Bound);

} // namespace orrery::sim

#endif // ORRERY_SIM_MESSAGES_H
