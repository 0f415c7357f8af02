//===- peer_record.h - what a context keeps per peer ------------*- C++ -*-===//
//
// A context's record of each peer it talks to (its address, its process for
// liveness checks, its outstanding operations), and the counts of
// operations of one kind in flight (PendingOps). A put reads and writes only
// the first line or two of its peer's record and nothing else per peer: on
// shm, with a kernel copy between two puts, every further line a put
// touched showed in its cost (per-peer counts in a std::map and a clock
// read per put: together 14 us per 64 puts of 8 KiB, the target not
// polling).
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_PEER_RECORD_H
#define RAMC_SRC_PEER_RECORD_H

#include "liveness.h"
#include "transport.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ramc {

struct PeerRecord {
  // What every operation to the peer reads comes first.
  bool Resolved = false;
  // Liveness (peer_watch.cpp): whether the process behind the peer can be
  // watched (it runs on this host), is known to have exited, and when to
  // look again; the clock is read on every kClockSkips+1-th look only.
  bool Watched = false;
  bool Gone = false;
  bool GoneReported = false;
  uint8_t ClockSkips = 0;
  int Rank = -1;
  PeerAddr Addr = kNoPeerAddr;
  double NextCheck = 0;
  // Operations outstanding to the peer, per PendingOps kind (puts, gets),
  // and those counted done when its exit was reported whose completions
  // may still come (PendingOps).
  uint64_t Outstanding[2] = {0, 0};
  uint64_t WrittenOff[2] = {0, 0};
  bool Listed[2] = {false, false}; // in that kind's PendingOps::Ranks
  uint64_t CtrlKey = 0;
  uint64_t CtrlBase = 0;
  ProcessIdentity Proc;
};

/// Operations of one kind (puts, gets) started and completed, and per
/// peer (in the PeerRecords).
struct PendingOps {
  explicit PendingOps(int Kind) : Kind(Kind) {}
  const int Kind; // index into PeerRecord::Outstanding, ::WrittenOff
  uint64_t Issued = 0;
  uint64_t Done = 0;
  // Peers that had operations outstanding since the last completed wait
  // (each once; PeerRecord::Listed).
  std::vector<int> Ranks;
  std::vector<MemRegion> LocalRegs; // FI_MR_LOCAL only
  // Peers that injected operations went to since the last wait: they
  // complete at once, so only the peer's liveness can say they failed.
  std::vector<int> InjectedTo;
  void injected(int Peer) {
    if (std::find(InjectedTo.begin(), InjectedTo.end(), Peer) ==
        InjectedTo.end())
      InjectedTo.push_back(Peer);
  }
  void issue(PeerRecord &Pe) {
    ++Issued;
    ++Pe.Outstanding[Kind];
    if (!Pe.Listed[Kind]) {
      Pe.Listed[Kind] = true;
      Ranks.push_back(Pe.Rank);
    }
  }
  void unissue(PeerRecord &Pe) {
    --Issued;
    --Pe.Outstanding[Kind];
  }
  void done(PeerRecord &Pe) {
    if (Pe.WrittenOff[Kind]) { // counted when its peer was found gone
      --Pe.WrittenOff[Kind];
      return;
    }
    ++Done;
    if (Pe.Outstanding[Kind])
      --Pe.Outstanding[Kind];
  }
  // Operations to a peer that exited never complete (or late, with an
  // error): they are counted as done when the exit is reported, so that
  // waits for operations to other peers do not wait for them, and their
  // completions, should they still come, are then ignored.
  void writeOff(PeerRecord &Pe) {
    Done += Pe.Outstanding[Kind];
    Pe.WrittenOff[Kind] += Pe.Outstanding[Kind];
    Pe.Outstanding[Kind] = 0;
  }
};

} // namespace ramc

#endif
