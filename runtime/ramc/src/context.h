//===- context.h - one RAMC context -----------------------------*- C++ -*-===//
//
// All state of one RAMC endpoint: bootstrap, transport, peers (resolved on
// first use), the control region (bulletin board, status words), the windows
// this process exposes (targets) and its attachments to remote windows
// (initiators). Not thread-safe. Every method returns a RAMC_* code and
// records a message naming the call, peer and parameter on failure. The
// transport (libfabric or SimGrid, transport.h) is the only part that
// differs between libramc and libramc-sim.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_CONTEXT_H
#define RAMC_SRC_CONTEXT_H

#include "batch.h"
#include "board.h"
#include "bootstrap.h"
#include "consume_counter.h"
#include "error.h"
#include "liveness.h"
#include "peer_record.h"
#include "transport.h"
#include "wire.h"

#include "ramc/ramc_ctx.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ramc {

struct Options {
  std::string Provider;
  NotifyMode Notify = NotifyMode::Auto;
  int BootstrapKind = RAMC_BOOTSTRAP_AUTO;
  int64_t DefaultTimeoutMs = 120000;
  bool DeliveryComplete = false;
  WaitMode Wait = WaitMode::Auto;
  size_t MaxWindows = 0; // 0: the transport's default (1024 natively)
  /// Aggregation of small non-blocking puts (aggregate.cpp): puts of at
  /// most AggPutMax bytes are shipped in batches of at most AggBytes. 0:
  /// off.
  size_t AggBytes = 16384;
  size_t AggPutMax = 4096;
  /// A batch of puts small enough that three fit in this many bytes is
  /// shipped once it would pass them (aggregate.cpp). -1: the provider's
  /// default; 0: at AggBytes.
  int64_t AggShipBytes = -1;
  /// Runs of large non-blocking puts into one window notify their target
  /// once per this many puts at most (notify_run.cpp). 1: every put.
  uint32_t NotifyRun = 64;
  /// The puts of such runs on shm are copied into the target by RAMC itself
  /// (fabric_direct.cpp).
  bool DirectWrites = true;
  /// Waiting (spin_budget.cpp): microseconds a wait spins before it blocks
  /// or yields (-1: the measured cost of a wake-up), yields until (-1: 5000
  /// on oversubscribed nodes, for ever on dedicated cores), and lets pass
  /// at least between two yields (-1: 0 on oversubscribed nodes, 50 on
  /// dedicated cores).
  int64_t SpinUs = -1;
  int64_t YieldUs = -1;
  int64_t YieldGapUs = -1;
  /// Reads the environment (RAMC_PROVIDER, FI_PROVIDER, RAMC_NOTIFY,
  /// RAMC_TIMEOUT_MS, RAMC_DELIVERY_COMPLETE, RAMC_MAX_WINDOWS,
  /// RAMC_AGG_BYTES, RAMC_AGG_PUT_MAX, RAMC_AGG_SHIP_BYTES,
  /// RAMC_NOTIFY_RUN, RAMC_DIRECT_WRITES, RAMC_SPIN_US,
  /// RAMC_YIELD_US, RAMC_YIELD_GAP_US) and then applies what C sets explicitly.
  /// Returns false with Err on a bad value.
  bool load(const ramc_ctx_options_t *C, std::string &Err);

private:
  bool loadAggregation(std::string &Err);
  bool loadNotifyRun(std::string &Err);
  bool loadWaiting(std::string &Err);
};

/// Reads the integer environment variable Name into Out (left alone when
/// unset); false with Err when it is not an integer.
bool envInt(const char *Name, int64_t &Out, std::string &Err);

/// A point on the transport's clock (transportClock()).
class Deadline {
public:
  /// Ms < 0 (RAMC_TIMEOUT_INFINITE) never expires.
  explicit Deadline(int64_t Ms);
  bool expired() const;
  int64_t ms() const { return Ms; }
  bool infinite() const { return Ms < 0; }
  /// When it expires, in seconds of transportClock().
  double end() const { return End; }

private:
  int64_t Ms;
  double End;
};

/// A Deadline that starts at its first look: for posting an operation,
/// which needs one only while the provider answers -FI_EAGAIN. Most posts
/// succeed at once, and a clock read per put showed in RAMC's per-put cost.
class LazyDeadline {
public:
  explicit LazyDeadline(int64_t Ms) : Ms(Ms) {}
  bool expired() const {
    if (!D)
      D.emplace(Ms);
    return D->expired();
  }
  int64_t ms() const { return Ms; }

private:
  int64_t Ms;
  mutable std::optional<Deadline> D;
};

class Context final : private CompletionSink {
public:
  Context();
  ~Context() override;
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  int init(const Options &O);

  int rank() const { return Rank; }
  int size() const { return Size; }
  const char *error() const { return Err.message(); }
  const char *provider() const { return Tr->providerName().c_str(); }
  const char *bootstrapName() const { return Boot ? Boot->name() : ""; }
  NotifyMode notify() const { return Tr->notify(); }
  size_t injectSize() const { return Tr->injectSize(); }
  const char *describeCStr() const { return Description.c_str(); }
  int fail(int Code, const char *Fmt, ...)
      __attribute__((format(printf, 3, 4)));
  void setDefaultTimeout(int64_t Ms) { Opts.DefaultTimeoutMs = Ms; }
  int64_t timeoutFor(int64_t Ms) const;

  int barrier();
  int progress();

  // Targets (target.cpp).
  int targetCreate(void *Buf, size_t Len, uint64_t Tag, uint64_t Init,
                   ramc_target_t &Out, const char *Call);
  int targetDestroy(ramc_target_t T, const char *Call);
  int targetPost(ramc_target_t T, const char *Call);
  int targetUnpost(ramc_target_t T, const char *Call);
  int targetSetStatus(ramc_target_t T, uint64_t V, bool Add, const char *Call);
  int targetStatus(ramc_target_t T, uint64_t &V, const char *Call);
  int targetTest(ramc_target_t T, uint64_t N, const char *Call);
  int targetWait(ramc_target_t T, uint64_t N, int64_t Ms, const char *Call);
  int targetCounts(ramc_target_t T, uint64_t &Arrived, uint64_t &Consumed,
                   const char *Call);
  int bbActivate(bool On, const char *Call);
  int bbTestAttaches(uint64_t N, const char *Call);
  int bbWaitAttaches(uint64_t N, int64_t Ms, const char *Call);

  // Initiators (initiator.cpp).
  int bbRead(int Peer, Board &Snapshot, const char *Call);
  int attach(int Peer, uint64_t Tag, bool AnyTag, uint64_t Init, int64_t Ms,
             ramc_initiator_t &Out, const char *Call);
  int detach(ramc_initiator_t I, const char *Call);
  int info(ramc_initiator_t I, int &Peer, uint64_t &Tag, size_t &Len,
           const char *Call);
  int expected(ramc_initiator_t I, uint64_t &V, const char *Call);
  int setExpected(ramc_initiator_t I, uint64_t V, bool Add, const char *Call);
  int readStatus(ramc_initiator_t I, uint64_t &V, const char *Call);
  /// Compares the target's status with the expected value. Returns a code
  /// (SUCCESS, ERROR, TIMEOUT); Relation gets RAMC_SUCCESS (equal),
  /// RAMC_TARGET_BEHIND or RAMC_TARGET_AHEAD (the 0.5 values overlap with
  /// RAMC_ERROR and RAMC_TIMEOUT, so they never share one return value).
  int check(ramc_initiator_t I, int &Relation, const char *Call);
  int waitStatus(ramc_initiator_t I, int64_t Ms, const char *Call);
  int put(ramc_initiator_t I, const void *Src, size_t Len, size_t Off,
          bool NonBlocking, const char *Call);
  int get(ramc_initiator_t I, void *Dst, size_t Len, size_t Off,
          bool NonBlocking, const char *Call);
  int atomicInc(ramc_initiator_t I, size_t Off, const char *Call);
  int waitPuts(int64_t Ms, const char *Call);
  int waitGets(int64_t Ms, const char *Call);

private:
  using Peer = PeerRecord;
  struct Window {
    bool Live = false;
    uint32_t Gen = 0;
    uint64_t Tag = 0;
    void *Buf = nullptr;
    size_t Len = 0;
    MemRegion Mr;
    ConsumeCounter Ops;
    int PostedSlot = -1;
  };
  struct Attachment {
    bool Live = false;
    uint32_t Gen = 0;
    int Peer = -1;
    PeerAddr PeerAddress = kNoPeerAddr; // Peers[Peer].Addr, for every put
    uint64_t Tag = 0;
    uint64_t Key = 0;
    uint64_t Addr = 0;
    uint64_t Len = 0;
    uint32_t Chan = 0;
    uint64_t StatusAddr = 0;
    uint64_t Expected = 0;
  };
  // CompletionSink.
  void onTxDone(void *Op) override;
  void onTxError(void *Op, int E, const std::string &Msg) override;
  void onRemoteData(uint64_t Data) override;
  void onBatch(const uint8_t *Data, size_t Len) override;
  void onRxError(int E, const std::string &Msg) override;

  // Aggregation of small non-blocking puts (aggregate.cpp).
  /// Whether a non-blocking put of Len bytes from Src goes into a batch.
  bool aggregates(const void *Src, size_t Len) const;
  /// Copies the put into the peer's open batch (shipping a full one
  /// first). Staged is false, with RAMC_SUCCESS, when no send buffer is
  /// free: the caller puts directly.
  int stagePut(const Attachment &A, const void *Src, size_t Len, size_t Off,
               const char *Call, bool &Staged);
  /// Ships peer P's open batch, if any.
  int shipBatch(int P, const char *Call);
  /// Ships every open batch and ends the open run (notify_run.cpp): every
  /// call but a non-blocking put does this first, so that no staged put,
  /// held put or run's note waits for a later put to leave. With Report,
  /// returns the first failure; else a failure is recorded for the next wait
  /// for puts (as an injected put's would be).
  int flushBatches(const char *Call, bool Report = false);
  bool takeSendBuffer(uint32_t &Index);
  void releaseSendBuffer(uint32_t Index);
  void releaseSendBuffers();
  std::string describeAggregation() const;
  void initAggregation();

  // One notification for a run of large puts (notify_run.cpp).
  /// Whether a non-blocking put of Len bytes into A's window, not
  /// aggregated and not injected, is held back to end a run.
  bool holdsPut(const Attachment &A, size_t Len) const;
  /// Holds Put (to rank P, window channel Chan), first sending the put held
  /// before it: without notification when Put continues its run, else
  /// with the count of that run. Where runs are delivered, sends Put at
  /// once (runPut).
  int holdPut(int P, uint32_t Chan, const RmaOp &Put, const char *Call);
  /// Sends the held put, if any: with the count of its run (Notify), or
  /// without notification when the next put continues the run.
  int sendHeldPut(bool Notify, const char *Call);
  /// Sends Put as the next of a delivered run, first ending the run before
  /// it if Put does not continue that one.
  int runPut(int P, uint32_t Chan, const RmaOp &Put, const char *Call);
  /// Ends the open run, if any: sends its held put with the run's count,
  /// or waits until a delivered run's puts have landed and sends its note.
  int endRun(const char *Call);
  std::string describeNotifyRuns() const;
  void initNotifyRuns();
  /// Sets the spin budget and yield phase of waits (spin_budget.cpp).
  void initWaiting();

  /// Peer's record, resolved on first use (nullptr after a failure).
  Peer *resolve(int Peer, const char *Call, int &Code);
  /// Peer's record if it has one, else nullptr; the last one found is
  /// remembered (records never move: Peers is node-based and never erased).
  Peer *findPeer(int P) {
    if (P == HotRank)
      return HotPeer;
    auto It = Peers.find(P);
    if (It == Peers.end())
      return nullptr;
    HotRank = P;
    HotPeer = &It->second;
    return HotPeer;
  }
  /// The record of a peer that operations went to (resolved already).
  Peer &peerRef(int P) {
    Peer *Pe = findPeer(P);
    return Pe ? *Pe : Peers[P];
  }
  Window *window(ramc_target_t T, const char *Call, int &Code);
  /// The live window of channel Chan (wire.h), or nullptr.
  Window *channelWindow(uint32_t Chan);
  /// I's attachment, or nullptr with the error recorded (Code).
  Attachment *attachment(ramc_initiator_t I, const char *Call, int &Code) {
    uint32_t Slot = handleSlot(I);
    if (handleIs(I, HandleKind::Initiator) && Slot < Attachments.size() &&
        Attachments[Slot].Live && Attachments[Slot].Gen == handleGen(I))
      return &Attachments[Slot];
    return notAttached(I, Call, Code);
  }
  Attachment *notAttached(ramc_initiator_t I, const char *Call, int &Code);
  void publishStatus(uint32_t Index, uint64_t Value, uint64_t Chan);
  void updateCounters();
  int takeTxError(const char *Call);
  /// Reads Len bytes at RAddr of Peer's control region into a scratch slot
  /// and waits for them.
  int readControl(int Peer, uint64_t ROff, size_t Len, void *&Landing,
                  const Deadline &D, const char *What, const char *Call);
  void noteAttacher(int Rank);
  std::vector<int> attacherRanks() const;
  std::string attachers() const;

  // Peer liveness (peer_watch.cpp).
  /// Whether peer P's process is known to have exited. Looks at most every
  /// few milliseconds per peer; Now: at least whether the PID still exists.
  /// False for unresolved peers and where liveness cannot be told (another
  /// host, SimGrid).
  bool peerGone(int P, bool Now = false);
  /// Records the error of an operation (What) that needs peer P, who has
  /// exited.
  int peerGoneError(int P, const char *Call, const char *What);
  /// The first resolved peer whose process has exited, or -1 (Now as for
  /// peerGone).
  int firstGonePeer(bool Now);
  /// The first resolved peer whose process has exited and that the
  /// bootstrap does not know to have reached the current barrier, or -1.
  /// Without Now, only while the barrier waits; with Now, once released,
  /// only where the bootstrap can tell (else a peer that left right after
  /// the barrier would fail it).
  int firstMissingPeer(bool Now);
  /// "; of these, rank(s) ... have exited" for the attachers that have, or
  /// "".
  std::string goneAttachers();
  /// Whether a failed operation (Op: its context; nullptr: an injected
  /// one, which libfabric reports without saying to whom) is explained by a
  /// peer whose exit was reported already.
  bool explainedByGonePeer(void *Op);
  /// "; rank R (pid P on this node) has exited: probably ..." naming a peer
  /// that has, for errors libfabric reports without saying whose, or "".
  std::string goneSuspect();
  /// Posts one transport operation, retrying while the transport is busy
  /// (kTransportAgain, libfabric's -FI_EAGAIN) and progressing, until the
  /// deadline.
  /// D is a Deadline or a LazyDeadline.
  template <typename Fn, typename DeadlineT>
  int post(Fn &&Op, int Peer, const char *What, const DeadlineT &D,
           const char *Call);
  /// post() of an operation whose completion Ops counts: counted as issued,
  /// and uncounted again if it cannot be posted.
  template <typename Fn, typename DeadlineT>
  int postTracked(PendingOps &Ops, Fn &&Op, int Peer, const char *What,
                  const DeadlineT &D, const char *Call) {
    PeerRecord &Pe = peerRef(Peer);
    Ops.issue(Pe);
    int Rc = post(std::forward<Fn>(Op), Peer, What, D, Call);
    if (Rc)
      Ops.unissue(Pe);
    return Rc;
  }
  int waitPending(PendingOps &P, const Deadline &D, const char *What,
                  const char *Call);
  /// Checks a put (IsPut) or get of Len bytes at Off of attachment A:
  /// RAMC_SUCCESS, or the error recorded.
  int checkTransfer(const Attachment &A, const void *Buf, size_t Len,
                    size_t Off, const char *Call, bool IsPut) {
    if (Buf && Off <= A.Len && Len <= A.Len - Off && Len <= Limits.MaxMsg)
      return RAMC_SUCCESS;
    return transferError(A, Buf, Len, Off, Call, IsPut);
  }
  int transferError(const Attachment &A, const void *Buf, size_t Len,
                    size_t Off, const char *Call, bool IsPut);
  /// The descriptor of Buf where the provider wants local buffers
  /// registered (registered for the next wait of P to release), else
  /// nullptr.
  bool localDesc(const void *Buf, size_t Len, PendingOps &P, void *&Desc,
                 const char *Call, int &Code) {
    Desc = nullptr;
    return !Limits.LocalMr || registerLocal(Buf, Len, P, Desc, Call, Code);
  }
  bool registerLocal(const void *Buf, size_t Len, PendingOps &P, void *&Desc,
                     const char *Call, int &Code);
  /// An RMA operation of Len bytes at Off of attachment A, from or into Local.
  RmaOp rmaOp(const Attachment &A, const void *Local, size_t Len, size_t Off);
  /// An 8-byte write into peer P's acknowledgement word for this rank.
  RmaOp ackWrite(int P);

  /// What every put asks of the transport, read once at init: a virtual
  /// call and the transport object's lines per put showed in shm's per-put
  /// cost. The transport's properties do not change once it is open.
  struct TransportLimits {
    size_t MaxMsg = 0;
    size_t InjectMax = 0; // larger puts are not injected (0: none is)
    bool CqData = false;  // puts carry their window's channel as CQ data
    bool LocalMr = false; // local buffers need registering (FI_MR_LOCAL)
  };
  TransportLimits Limits;

  Options Opts;
  ErrorState Err;
  std::unique_ptr<Bootstrap> Boot;
  std::unique_ptr<Transport> Tr;
  int Rank = 0;
  int Size = 1;
  bool Ready = false;
  // Sparse: channels are, and under SimGrid every rank's context lives in
  // one process (a vector per context would be quadratic).
  std::unordered_map<int, Peer> Peers;
  int HotRank = -1; // findPeer's last answer
  Peer *HotPeer = nullptr;
  std::string EpKey;
  std::string Description;

  ControlLayout Layout{1024};
  uint8_t *Ctrl = nullptr;
  MemRegion CtrlMr;
  Board *MyBoard = nullptr;
  ConsumeCounter Attaches;
  std::vector<int> AttachedBy; // ranks whose attach acks arrived

  std::vector<Window> Windows;
  std::deque<uint32_t> FreeWindows; // FIFO: indexes are reused late
  std::vector<Attachment> Attachments;
  std::vector<uint32_t> FreeAttachments;

  PendingOps Puts{0}, Gets{1};
  // Aggregation: send buffers (registered where FI_MR_LOCAL asks), free
  // ones, and each peer's open batch.
  struct SendBuffer {
    uint8_t *Data = nullptr;
    MemRegion Mr;
  };
  struct OpenBatch {
    uint32_t Buffer = 0;
    BatchWriter Writer;
    /// The first put as a write of its own: a batch that holds only it is
    /// shipped as that write (no message, no deposit: as fast as before).
    RmaOp First;
  };
  size_t AggBytes = 0; // effective (0: off)
  /// Batches of puts of at most ShipPutMax bytes are shipped before they
  /// pass ShipBatchBytes (0: at AggBytes): shm's inject size, for puts of
  /// up to an eighth of it; tcp;ofi_rxm's 12 KiB, for puts of which three
  /// fit; or RAMC_AGG_SHIP_BYTES (aggregate.cpp, initAggregation).
  size_t ShipBatchBytes = 0;
  size_t ShipPutMax = 0;
  /// The batch size a put of Len bytes may grow its batch to.
  size_t batchCapacity(size_t Len) const {
    return ShipBatchBytes && Len <= ShipPutMax ? ShipBatchBytes : AggBytes;
  }
  std::vector<SendBuffer> SendBuffers;
  std::vector<uint32_t> FreeSendBuffers;
  std::unordered_map<int, OpenBatch> OpenBatches;
  /// The open run: Sent puts to Peer's window Chan went without
  /// notification; with Holds, Op is its newest put, not sent yet (runs
  /// that are not delivered end with a held put that carries the count).
  struct OpenRun {
    bool Live = false;
    bool Holds = false;
    int Peer = -1;
    uint32_t Chan = 0;
    uint32_t Sent = 0;
    RmaOp Op;
  };
  OpenRun Run;
  size_t RunPutMax = 0;       // largest put a run takes (0: no runs)
  bool RunsDelivered = false; // runs counted by a note after delivery
  bool RunsDirect = false;    // ... whose puts RAMC writes itself
  uint32_t InternalSeq = 0;
  bool InternalDone = false;
  int InternalErr = 0;
  std::string InternalMsg;
  uint32_t ScratchNext = 0;

  // Puts accepted (of at least one byte) and the messages that carried them
  // (an aggregated batch, or a put's own write), printed at destruction
  // under RAMC_VERBOSE.
  uint64_t PutsAccepted = 0, PutMessages = 0;
  uint64_t PutsDirect = 0; // of those messages, written by RAMC itself

  // First asynchronous transmit error not yet reported.
  bool TxFailed = false;
  // The peer that operation went to (-1: unknown, an injected one): once
  // that peer's exit is reported, the error it explains is not reported
  // again.
  int TxPeer = -1;
  std::string TxMsg;
};

} // namespace ramc

// Template members shared by target.cpp and initiator.cpp.
namespace ramc {

template <typename Fn, typename DeadlineT>
int Context::post(Fn &&Op, int Peer, const char *What, const DeadlineT &D,
                  const char *Call) {
  if (peerGone(Peer))
    return peerGoneError(Peer, Call, What);
  for (;;) {
    long Rc = Op();
    if (Rc == 0)
      return RAMC_SUCCESS;
    if (Rc != kTransportAgain && peerGone(Peer, /*Now=*/true))
      return peerGoneError(Peer, Call, What);
    if (Rc != kTransportAgain)
      return fail(RAMC_ERROR, "%s: starting the %s (rank %d) failed: %s", Call,
                  What, Peer, transportError(Rc).c_str());
    Tr->progress(*this);
    if (peerGone(Peer))
      return peerGoneError(Peer, Call, What);
    if (D.expired())
      return fail(RAMC_TIMEOUT,
                  "%s: the %s (rank %d) could not be started within %lld ms: "
                  "the provider kept answering -FI_EAGAIN (is rank %d "
                  "alive?)",
                  Call, What, Peer, static_cast<long long>(D.ms()), Peer);
  }
}

} // namespace ramc

#endif
