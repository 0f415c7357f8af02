//===- NetworkFactors.h - SMPI's correction factors, off GPU links -*- C++ -*-//
//
// smpirun forces SMPI's network model, whose latency and bandwidth factors
// (fitted to MPI messages over Ethernet and InfiniBand) would also distort
// the PCIe and NVLink flows of copies. These callbacks keep SMPI's factor
// table on routes that cross a NIC and apply none (1) to routes inside a
// node (GPU links, shared memory). In ideal mode every factor is 1, so a
// message costs exactly latency + bytes / bandwidth of its route. They also
// serve announced flows: payload-free messages, and flows whose latency is
// a fixed cost (alpha_gdr) rather than their route's.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_NETWORKFACTORS_H
#define ORRERY_SIM_NETWORKFACTORS_H

#include "orrery/models/Machine.h"

#include <string>
#include <utility>
#include <vector>

namespace simgrid::s4u {
class Link;
}

namespace orrery::sim {

/// A piecewise-constant factor table as SMPI's smpi/bw-factor and
/// smpi/lat-factor options spell it: "threshold:factor;...". A message of n
/// bytes takes the factor of the largest threshold <= n (1 below all).
class FactorTable {
public:
  /// False with \p Error set if \p Spec is malformed.
  bool parse(const std::string &Spec, std::string &Error);
  double at(double Bytes) const;

private:
  std::vector<std::pair<double, double>> Steps; ///< sorted by threshold
};

/// Installs the callbacks on the platform's network model (idempotent).
/// Shared-memory routes get the factors that turn their links' figures into
/// those of each message's size band in \p SharedMemory, in both modes.
void installNetworkFactors(bool Ideal,
                           const models::SharedMemoryModel &SharedMemory);

/// The latency and bandwidth factors SimGrid applies to a message of
/// \p Bytes over \p Links: what the callbacks return (1 on GPU-only routes
/// and in ideal mode, SMPI's tables otherwise), or the user's tables on
/// every route when factor options were set and the callbacks refused.
double latencyFactor(double Bytes, const std::vector<simgrid::s4u::Link *> &L);
double bandwidthFactor(double Bytes,
                       const std::vector<simgrid::s4u::Link *> &L);

/// What a route is made of, as the factors see it: shared-memory links
/// only, links inside one node only (PCIe, NVLink, shared memory), or any
/// network link.
enum class RouteKind { SharedMemory, IntraNode, Network };
RouteKind routeKind(const std::vector<simgrid::s4u::Link *> &Links);

/// {latency, bandwidth} factors that turn the figures of a route of
/// shared-memory links into those of the size band of a message of
/// \p Bytes (node.shm_transport.bands); {1, 1} on any other route.
std::pair<double, double> sharedMemoryBandFactors(double Bytes, RouteKind K);

/// Announces that the next SMPI message of \p Bytes from a rank on host
/// \p Src to a rank on host \p Dst carries no payload through its route
/// (a CUDA-aware transfer whose payload a peer leg or a GPUDirect flow
/// moves): that message then costs its route's latency only.
void expectPayloadFreeMessage(const void *Src, const void *Dst, double Bytes);

/// How a flow announced with expectFlow starts: its latency, and how late.
struct FlowStart {
  /// Seconds of latency instead of its route's (< 0: the route's, with the
  /// usual factors). The payload of a GPUDirect RDMA message, pulled by the
  /// receiver after the SMPI message that announced it paid the wire
  /// latency, pays alpha_gdr (the RDMA read's setup) over the PCIe and NIC
  /// links.
  double Latency = -1;
  /// Seconds added to that latency: SimGrid's flows take no bandwidth while
  /// their latency runs, so this is the same flow started that much later,
  /// without a sleep (Runtime::cpuFlow: a rank's time ahead of the clock).
  /// Only for routes with a latency (SimGrid scales it).
  double Delay = 0;
};

/// Announces how the next flow of \p Bytes (as SimGrid counts them: whole
/// bytes) from host \p Src to host \p Dst starts.
void expectFlow(const void *Src, const void *Dst, double Bytes, FlowStart F);

} // namespace orrery::sim

#endif // ORRERY_SIM_NETWORKFACTORS_H
