//===- MpiCost.h - Device legs of GPU-aware MPI calls -----------*- C++ -*-===//
//
// The part of an MPI call Orrery charges on top of SMPI's network time
// (docs/cost-model.md): device legs per buffer and transport, t_call and
// Open MPI coll/cuda's host bounce for collectives. Point-to-point send legs
// are charged before the call, receive legs after it (for nonblocking
// receives, when the next wait completes).
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_MPICOST_H
#define ORRERY_SIM_MPICOST_H

#include "ranks/Runtime.h"

namespace orrery::sim {

/// The leg of the rank's side of a transfer of \p Bytes at \p Buf with
/// \p Peer (a rank of communicator \p Comm; 0 means MPI_COMM_WORLD).
DeviceLeg legOf(const Rank &R, const void *Buf, double Bytes, int Peer,
                intptr_t Comm, bool Sending);
/// Charges one device leg on the calling rank.
void chargeLeg(Rank &R, const DeviceLeg &L);

/// What a point-to-point call matches by besides its peer (the hook's
/// send_tag, source and recv_tag; -1: none or not annotated).
struct MatchArgs {
  int SendTag = -1;
  int Source = -1;
  int RecvTag = -1;
  /// Nonblocking receives: where the program keeps the request (null:
  /// not annotated, any wait completes the receive).
  const void *Request = nullptr;
};

/// Whether a call of \p Api (root \p Root of \p Comm) leaves a result on
/// the calling rank that a user's value may replace (DeviceValues.h): a
/// reduction, scan or broadcast; MPI_Reduce's at its root only.
/// \p Nonblocking: the result is there once a wait or test completes it.
bool resultCollective(const char *Api, int Root, intptr_t Comm,
                      bool &Nonblocking);

void mpiBegin(Rank &R, OpenSite &O, orrery_buf Send, orrery_buf Recv, int Peer,
              intptr_t Comm, const MatchArgs &Match);
void mpiEnd(Rank &R, OpenSite &O);

} // namespace orrery::sim

#endif // ORRERY_SIM_MPICOST_H
