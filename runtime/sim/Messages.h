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

#include <optional>
#include <string>

namespace simgrid::s4u {
class Host;
}

namespace orrery::sim {

struct SentMessage {
  int Src = 0, Dst = 0; ///< world ranks
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
/// The oldest message to \p Dst from \p Src (any source when negative) of
/// at most \p Bytes, removed from the registry; none if it was not posted
/// (a send outside instrumented code, or a receive that has not completed).
std::optional<SentMessage> matchMessage(int Src, int Dst, double Bytes);

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
