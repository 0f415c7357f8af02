//===- CommCost.h - Device legs, point-to-point, collectives ----*- C++ -*-===//
//
// The paper's equations (seed 000, Sec. III-B; docs/cost-model.md):
//   t_leg(n)     = t_d2h(n)+t_h2d(n) | alpha_gdr | t_peer(n) | 0
//   T_p2p        = t_leg(n_s) + T_net + t_leg(n_r)
//   T_coll       = t_leg(n_s) + t_leg(n_r) + t_call + T_net
//   T_coll^op    = 2 t_d2h + t_h2d + t_reduce + t_call + T_net
// T_net is SimGrid's; pass it to evaluate a whole equation, or 0 to get what
// Orrery charges on top of the simulated network.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_COMMCOST_H
#define ORRERY_MODELS_COMMCOST_H

#include "orrery/models/CommParams.h"
#include "orrery/models/Cost.h"
#include "orrery/models/Hockney.h"
#include "orrery/models/Transport.h"

namespace orrery::models {

/// t_leg(n) of one side.
Cost deviceLeg(const CommParams &P, LegKind K, double Bytes);

/// A blocking cudaMemcpy of \p Bytes: per-call overhead + t_h2d/t_d2h/...
enum class CopyKind { HostToDevice, DeviceToHost, DeviceToDevice, PeerToPeer };
Cost memcpyCost(const CommParams &P, CopyKind K, double Bytes);

/// T_p2p for a message whose transport was chosen by selectTransport().
Cost p2pCost(const CommParams &P, const TransportChoice &T, double SendBytes,
             double RecvBytes, double NetTime = 0);

struct CollectiveCall {
  Collective Op = Collective::Allreduce;
  MemorySpace Space = MemorySpace::Host; ///< of the rank's buffers
  double SendBytes = 0;                  ///< n_s: this rank's send buffer
  double RecvBytes = 0;                  ///< n_r: this rank's receive buffer
  /// Widest locality among the communicator's ranks.
  Locality Span = Locality::OtherNode;
};

/// The leg each device buffer of \p C pays when it does not bounce through
/// the host: the leg a pair at the communicator's widest distance would pay.
LegKind collectiveLeg(const CommParams &P, const CollectiveCall &C);

/// True when \p C on device buffers takes Open MPI coll/cuda's host bounce.
bool bouncesThroughHost(const CommParams &P, const CollectiveCall &C);

/// T_coll, or T_coll^op when the call bounces through the host.
Cost collectiveCost(const CommParams &P, const CollectiveCall &C,
                    double NetTime = 0);

/// A lower bound of the network time of \p C's blocking form among
/// \p Ranks ranks, \p Bytes per rank, every message over \p Widest (the
/// communicator's longest route and narrowest link): the tree and
/// recursive-doubling algorithms Open MPI's tuned selection uses take
/// ceil(log2 Ranks) rounds (alltoall's linear exchange one) and move the
/// bytes at least once: rounds x latency + bytes / bandwidth. SMPI 3.32 runs
/// every nonblocking collective as one direct exchange, which on small
/// messages costs one round; liborrery-sim holds such a collective's
/// completion to this bound (docs/cost-model.md, "Nonblocking collectives").
double blockingCollectiveBound(Collective C, int Ranks, double Bytes,
                               const Hockney &Widest);

} // namespace orrery::models

#endif // ORRERY_MODELS_COMMCOST_H
