//===- transport.h - what a RAMC context needs from its network -*- C++ -*-===//
//
// The seam between RAMC's front end (contexts, windows, attachments, the
// bulletin board, both APIs) and the network that moves bytes. Two
// implementations: libfabric (fabric.cpp, libramc) and SimGrid
// (sim/sim_transport.cpp, libramc-sim). A library is linked with exactly one
// of them; createTransport(), transportClock(), transportError() and
// liveTransportObjects() come from it.
//
// Operations are asynchronous: they return 0 once started, kTransportAgain
// when the transport is busy (the caller progresses and retries), or another
// negative error. Their completions, remote notifications and errors are
// delivered by progress() to a CompletionSink.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_TRANSPORT_H
#define RAMC_SRC_TRANSPORT_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ramc {

class Backoff;
class Deadline;

enum class NotifyMode { Auto = 0, MrCounter = 1, CqData = 2 };

/// How a wait that has spun for its budget goes on (backoff.h).
enum class WaitMode { Auto = 0, Poll = 1, Block = 2 };

struct TransportOptions {
  std::string Provider; // empty: best available
  NotifyMode Notify = NotifyMode::Auto;
  bool DeliveryComplete = false;
  WaitMode Wait = WaitMode::Auto;
  /// Whether writeDirect may copy into peers' memory itself.
  bool DirectWrites = true;
};

/// A registered memory region. Handle and Counter are the transport's own
/// (fid_mr and, in MR_COUNTER mode, fid_cntr under libfabric).
struct MemRegion {
  void *Handle = nullptr;
  void *Counter = nullptr;
  void *Desc = nullptr;
  uint64_t Key = 0;
  uint64_t RemoteBase = 0; // address a peer uses for offset 0
  /// Device memory (simulated only): its contents are not simulated, so
  /// nothing is copied into it.
  bool Device = false;
};

/// A peer as the transport addresses it (an fi_addr_t under libfabric).
using PeerAddr = uint64_t;
constexpr PeerAddr kNoPeerAddr = ~0ull;

/// "Busy, progress and try again" (libfabric's -FI_EAGAIN).
constexpr long kTransportAgain = -11;
/// "Not this way": writeDirect cannot, the caller posts write() (-ENOSYS).
constexpr long kTransportUnsupported = -38;

/// One remote memory access: Len bytes between Local and [RAddr, RAddr+Len)
/// of the region Key at Peer.
struct RmaOp {
  const void *Local = nullptr;
  size_t Len = 0;
  void *Desc = nullptr; // local registration (FI_MR_LOCAL)
  PeerAddr Peer = kNoPeerAddr;
  uint64_t RAddr = 0;
  uint64_t Key = 0;
  /// Operation context handed back on completion (wire.h encodeOp); nullptr
  /// for injected writes, which complete at once and report nothing.
  void *Op = nullptr;
  /// Remote CQ data (32 bits, wire.h) carried by writes in CQ_DATA mode.
  bool HasData = false;
  uint64_t Data = 0;
  /// Bytes the front end copied to build this write (a batch's one put,
  /// sent from the batch's buffer): what a simulated transport charges for
  /// the copy.
  size_t Copied = 0;
  /// Atomics: 8 bytes in the region of Desc where the transport may land
  /// the old value, should it issue a fetching atomic (Fabric::atomicInc).
  void *Result = nullptr;
};

/// Receives what Transport::progress drains.
class CompletionSink {
public:
  virtual ~CompletionSink() = default;
  virtual void onTxDone(void *Op) = 0;
  virtual void onTxError(void *Op, int Err, const std::string &Msg) = 0;
  virtual void onRemoteData(uint64_t Data) = 0;
  /// A message (an aggregated batch of puts, batch.h) of Len bytes arrived;
  /// Data is valid during the call only.
  virtual void onBatch(const uint8_t *Data, size_t Len) = 0;
  virtual void onRxError(int Err, const std::string &Msg) = 0;
};

class Transport {
public:
  virtual ~Transport() = default;

  virtual bool open(const TransportOptions &Opts, std::string &Err) = 0;
  virtual void close() = 0;

  /// Registers [Buf, Buf+Len) for remote (and local) access; with Counted
  /// in MR_COUNTER mode, remote writes into it are counted (readCounter).
  virtual bool registerMemory(void *Buf, size_t Len, bool Counted,
                              MemRegion &Out, std::string &Err) = 0;
  /// Registers a local buffer for FI_MR_LOCAL providers (Desc only).
  virtual bool registerLocal(const void *Buf, size_t Len, MemRegion &Out,
                             std::string &Err) = 0;
  virtual void release(MemRegion &R) = 0;
  /// The number of remote writes counted into R (MR_COUNTER mode) and of
  /// failed ones; false when R has no counter.
  virtual bool readCounter(const MemRegion &R, uint64_t &Count,
                           uint64_t &Errors) = 0;

  virtual std::vector<uint8_t> localAddress(std::string &Err) const = 0;
  virtual bool insertAddress(const std::vector<uint8_t> &Addr, PeerAddr &Out,
                             std::string &Err) = 0;

  /// RMA write; injected (Op.Op == nullptr) when Len <= injectSize().
  virtual long write(const RmaOp &Op) = 0;
  virtual long read(const RmaOp &Op) = 0;
  /// Copies Op's bytes into the memory of process Pid, a peer on this host
  /// (liveness.h), before it returns, past the provider: 0 once they have
  /// landed (no completion follows), kTransportUnsupported where this
  /// transport cannot (the caller posts write() instead), or another
  /// negative error. Only where writesDirectly().
  virtual long writeDirect(const RmaOp &Op, uint32_t Pid) {
    (void)Op;
    (void)Pid;
    return kTransportUnsupported;
  }
  /// Whether writeDirect may succeed (fabric_direct.cpp).
  virtual bool writesDirectly() const { return false; }
  /// Adds 1 to the uint64_t at RAddr; Op.Local points to the operand 1,
  /// Op.Result to a scratch word. DeliveryComplete: completes only once
  /// done at the target.
  virtual long atomicInc(const RmaOp &Op, bool DeliveryComplete) = 0;
  /// Sends the Len bytes at Buf (Desc: its registration, FI_MR_LOCAL) to
  /// Peer as one message, which the peer's progress() hands to its sink's
  /// onBatch. Injected (completes at once, reports nothing) when Op is
  /// nullptr, which needs Len <= injectSize(). Only when batchLimit() > 0.
  virtual long sendBatch(PeerAddr Peer, const void *Buf, size_t Len, void *Desc,
                         void *Op) = 0;

  /// Drains completions into Sink once. Returns entries processed.
  virtual size_t progress(CompletionSink &Sink) = 0;
  /// Waits a little for local progress (a completion, an arrival, a
  /// barrier release) before the caller polls again, never past D.
  virtual void waitForEvent(Backoff &B, const Deadline &D) = 0;
  /// Paces a loop that polls remote state (each poll is a remote read).
  virtual void pollAgain(Backoff &B) = 0;

  virtual NotifyMode notify() const = 0;
  virtual size_t injectSize() const = 0;
  virtual size_t maxMsgSize() const = 0;
  /// The largest message sendBatch carries; 0 when this transport sends no
  /// messages (then no put is aggregated).
  virtual size_t batchLimit() const = 0;
  /// Whether Buf is memory the host can copy from (simulated device memory
  /// is not): only such sources are aggregated.
  virtual bool hostMemory(const void *Buf) const {
    (void)Buf;
    return true;
  }
  /// The largest write whose data reaches a peer after that of every write
  /// posted to it before (libfabric's FI_ORDER_WAW up to
  /// max_order_waw_size); 0 where writes may land out of order.
  virtual size_t orderedWriteSize() const { return 0; }
  /// The size above which a write reports its completion only once its
  /// data has landed at the target, whatever the completion flags
  /// (SIZE_MAX: no size): where that covers every put of a run, the run
  /// is counted by one note once they completed (notify_run.cpp).
  virtual size_t completionLandsAbove() const { return SIZE_MAX; }
  virtual bool needsLocalMr() const = 0;
  virtual bool hasAtomics() const = 0;
  virtual bool deliveryComplete() const = 0;
  virtual const std::string &providerName() const = 0;
  virtual std::string describe() const = 0;
  /// Windows per context when RAMC_MAX_WINDOWS is not set.
  virtual size_t defaultMaxWindows() const { return 1024; }
  /// Scratch slots where this context's remote reads land.
  virtual unsigned scratchSlots() const { return 16; }
  /// Whether each peer is a process of its own, whose exit RAMC may watch
  /// (liveness.h). Not under SimGrid, where every rank is one process.
  virtual bool peersAreProcesses() const { return false; }
  /// Whether this node runs more of the job's processes than it has CPUs
  /// (cpu_share.h): then a waiter that gives way lets the processes it
  /// waits for run.
  virtual bool cpusShared() const { return false; }
  /// Whether a wait that has spun for its budget blocks until the provider
  /// signals a completion (rather than polling on).
  virtual bool waitsBlock() const { return false; }
};

/// The transport this library is built with.
std::unique_ptr<Transport> createTransport();

/// Seconds on the transport's clock (deadlines, peer checks): natively the
/// kernel's coarse monotonic clock, simulated time under SimGrid.
double transportClock();
/// How far transportClock() may lag the true time (natively its tick; 0
/// simulated): a deadline adds it, so that it never expires early.
double transportClockTick();

/// The transport's text for a (negative or positive) error number.
std::string transportError(long Ret);

/// Transport objects (libfabric fabrics, domains, endpoints, queues, memory
/// registrations, counters) opened by RAMC and not yet closed, over all
/// contexts.
long liveTransportObjects();

} // namespace ramc

#endif
