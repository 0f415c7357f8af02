//===- fabric_wait.cpp - how a libfabric wait goes on once it has spun ----===//
//
// A waiter that has spun for its budget either blocks on the completion
// queue's file descriptor until the provider signals a completion (tcp,
// verbs, sockets: a socket or completion channel wakes it, so on a busy
// machine it is scheduled again as soon as its data arrives), or keeps
// polling with yields and short sleeps (backoff.h). Blocking has a price
// where no one waits: the provider then signals the descriptor on every
// completion (64 puts of 1-128 B over tcp;ofi_rxm: 5-13 % less bandwidth
// on an idle 2-core machine). So, like Open MPI, which yields when idle
// only when a node is oversubscribed, RAMC_WAIT=auto blocks where the
// provider wakes waiters and this node runs more of the job's processes
// than it has CPUs (cpu_share.h); poll never blocks; block blocks on any
// provider with a descriptor (each block then lasts at most a millisecond
// when nothing signals).
//
//===----------------------------------------------------------------------===//
#include "backoff.h"
#include "context.h"
#include "cpu_share.h"
#include "fabric.h"

#include <algorithm>
#include <cstring>
#include <poll.h>
#include <rdma/fi_eq.h>

namespace ramc {

bool Fabric::cpusShared() const {
  static const bool Shared = nodeOversubscribed();
  return Shared;
}

/// The longest single block: what does not signal the descriptor (MR
/// counters, a bootstrap's barrier release) is seen within this.
constexpr double kMaxBlockSeconds = 1e-3;

int Fabric::openCompletionQueue(WaitMode Wait, std::string &Err) {
  bool Fd =
      Wait == WaitMode::Block ||
      (Wait == WaitMode::Auto && connectedProvider(ProvName) && cpusShared());
  for (;;) {
    fi_cq_attr A{};
    A.format = FI_CQ_FORMAT_DATA;
    A.wait_obj = Fd ? FI_WAIT_FD : FI_WAIT_NONE;
    // Room for every send and every receive the endpoint may have queued.
    A.size = (Info->tx_attr->size ? Info->tx_attr->size : 1024) +
             (Info->rx_attr->size ? Info->rx_attr->size : 1024);
    int Rc = fi_cq_open(Dom, &A, &Cq, nullptr);
    liveObjectCount() += !Rc;
    if (!Rc && Fd)
      Rc = fi_control(&Cq->fid, FI_GETWAIT, &CqFd);
    if (!Rc || !Fd) {
      WaitFd = Fd && !Rc;
      return Rc;
    }
    // No descriptor here: poll instead, unless blocking was asked for.
    if (Cq)
      closeFid(&Cq->fid);
    Cq = nullptr;
    CqFd = -1;
    if (Wait == WaitMode::Block) {
      Err = format("RAMC_WAIT=block: provider %s offers no file descriptor "
                   "to wait on (%s); use RAMC_WAIT=poll or auto",
                   ProvName.c_str(), transportError(Rc).c_str());
      return 1;
    }
    Fd = false;
  }
}

void Fabric::waitForEvent(Backoff &B, const Deadline &D) {
  if (!WaitFd)
    return B.pause();
  if (B.spun())
    block(D);
}

void Fabric::block(const Deadline &D) {
  // fi_trywait makes the provider progress and says whether blocking is
  // safe (nothing is waiting to be read).
  fid *Fids[1] = {&Cq->fid};
  if (fi_trywait(Fab, Fids, 1) != FI_SUCCESS)
    return;
  double Left = kMaxBlockSeconds;
  if (!D.infinite())
    Left = std::min(Left, D.end() - transportClock());
  if (Left <= 0)
    return;
  timespec T{0, static_cast<long>(Left * 1e9)};
  pollfd P{CqFd, POLLIN, 0};
  ppoll(&P, 1, &T, nullptr);
}

} // namespace ramc
