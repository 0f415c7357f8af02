//===- peer_watch.cpp - noticing that a peer's process has exited ---------===//
//
// A killed peer leaves no trace the shm provider reports: injected puts to
// it "complete", and the PMIx servers here release fences without it. So
// every peer's record carries its process identity (liveness.h), and RAMC
// looks at peers on this host: before each operation to a peer and while
// waiting on one (at most every kCheckPeriod seconds per peer, reading the
// clock on every kClockSkips+1-th look only), and, at
// least whether its PID still exists, whenever a wait completes (puts,
// barriers), so that success is never reported after a peer RAMC needed
// has gone.
//
//===----------------------------------------------------------------------===//
#include "context.h"

#include <algorithm>
#include <cerrno>
#include <csignal>

namespace ramc {

static constexpr double kCheckPeriod = 0.01;
/// Looks without Now that skip the clock between two that read it.
static constexpr uint8_t kClockSkips = 15;

/// Whether the PID of P no longer exists (one system call).
static bool pidMissing(const ProcessIdentity &P) {
  return kill(static_cast<pid_t>(P.Pid), 0) != 0 && errno == ESRCH;
}

bool Context::peerGone(int P, bool Now) {
  Peer *Pe = findPeer(P);
  if (!Pe || !Pe->Resolved || !Pe->Watched)
    return false; // another host or SimGrid: the provider and deadlines tell
  if (Pe->Gone)
    return true;
  // Before every put: reading the clock each time showed in shm's per-put
  // cost.
  if (!Now && Pe->ClockSkips-- > 0)
    return false;
  Pe->ClockSkips = kClockSkips;
  double T = transportClock();
  bool Due = T >= Pe->NextCheck;
  if (!Due && !Now)
    return false;
  if (Due) {
    Pe->NextCheck = T + kCheckPeriod;
    Pe->Gone = checkProcess(Pe->Proc) == Liveness::Gone;
  } else {
    Pe->Gone = pidMissing(Pe->Proc);
  }
  return Pe->Gone;
}

int Context::peerGoneError(int P, const char *Call, const char *What) {
  // Told once: later waits need not report what was injected to P before,
  // nor wait for what was started to P.
  auto &Inj = Puts.InjectedTo;
  Inj.erase(std::remove(Inj.begin(), Inj.end(), P), Inj.end());
  Puts.writeOff(Peers[P]);
  Gets.writeOff(Peers[P]);
  Peers[P].GoneReported = true;
  // An operation to P that failed before its exit was known (a provider
  // reports a dead peer's errors asynchronously) is explained now.
  if (TxFailed && TxPeer == P)
    TxFailed = false;
  return fail(RAMC_ERROR,
              "%s on rank %d: rank %d (pid %u on this node) has exited "
              "(killed, or ended without finalizing RAMC); the %s cannot "
              "complete",
              Call, Rank, P, Peers[P].Proc.Pid, What);
}

int Context::firstGonePeer(bool Now) {
  int First = -1;
  for (auto &[R, Pe] : Peers)
    if (Pe.Resolved && (First < 0 || R < First) && peerGone(R, Now))
      First = R;
  return First;
}

int Context::firstMissingPeer(bool Now) {
  int First = -1;
  for (auto &[R, Pe] : Peers) {
    if (!Pe.Resolved || (First >= 0 && R > First) || !peerGone(R, Now))
      continue;
    Bootstrap::Arrival A = Boot->arrivedAtBarrier(R);
    if (A == Bootstrap::Arrival::No ||
        (A == Bootstrap::Arrival::Unknown && !Now))
      First = R;
  }
  return First;
}

std::string Context::goneAttachers() {
  std::string S;
  for (int R : attacherRanks()) {
    int Code;
    if (resolve(R, "looking up an initiator", Code) && peerGone(R, true))
      S += format("%s%d (pid %u)", S.empty() ? "" : ", ", R, Peers[R].Proc.Pid);
  }
  return S.empty() ? "" : "; of these, rank(s) " + S + " have exited";
}

bool Context::explainedByGonePeer(void *Op) {
  if (Op) {
    auto It = Peers.find(opPeer(Op));
    return It != Peers.end() && It->second.GoneReported;
  }
  for (auto &[R, Pe] : Peers)
    if (Pe.GoneReported)
      return true;
  return false;
}

std::string Context::goneSuspect() {
  int R = firstGonePeer(/*Now=*/true);
  if (R < 0)
    return "";
  return format("; rank %d (pid %u on this node) has exited: probably an "
                "operation with it",
                R, Peers[R].Proc.Pid);
}

} // namespace ramc
