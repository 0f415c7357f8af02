//===- context.cpp - lifecycle, peers, progress of a RAMC context ---------===//
#include "context.h"

#include "backoff.h"

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace ramc {

bool envInt(const char *Name, int64_t &Out, std::string &Err) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return true;
  char *End = nullptr;
  long long X = std::strtoll(V, &End, 10);
  if (*End) {
    Err = format("%s='%s' is not an integer", Name, V);
    return false;
  }
  Out = X;
  return true;
}

/// Reads Name as one of Words (empty: the first); Out gets its index, the
/// enum value of the words' enum. Unset: Out stays.
static bool envWord(const char *Name, std::initializer_list<const char *> Words,
                    int &Out, std::string &Err) {
  const char *V = std::getenv(Name);
  if (!V)
    return true;
  std::string List;
  int I = 0;
  for (const char *W : Words) {
    if (!std::strcmp(V, W) || (!*V && I == 0)) {
      Out = I;
      return true;
    }
    List += (I++ ? ", " : "") + std::string(W);
  }
  Err = format("%s='%s' is not one of %s", Name, V, List.c_str());
  return false;
}

bool Options::load(const ramc_ctx_options_t *C, std::string &Err) {
  if (const char *P = std::getenv("RAMC_PROVIDER"))
    Provider = P;
  int Word = static_cast<int>(Notify);
  if (!envWord("RAMC_NOTIFY", {"auto", "mr_counter", "cq_data"}, Word, Err))
    return false;
  Notify = static_cast<NotifyMode>(Word);
  Word = static_cast<int>(Wait);
  if (!envWord("RAMC_WAIT", {"auto", "poll", "block"}, Word, Err))
    return false;
  Wait = static_cast<WaitMode>(Word);
  int64_t V = DefaultTimeoutMs;
  if (!envInt("RAMC_TIMEOUT_MS", V, Err))
    return false;
  DefaultTimeoutMs = V;
  if (!loadAggregation(Err) || !loadNotifyRun(Err) || !loadWaiting(Err))
    return false;
  V = DeliveryComplete;
  if (!envInt("RAMC_DELIVERY_COMPLETE", V, Err))
    return false;
  DeliveryComplete = V != 0;
  const char *MaxWin = std::getenv("RAMC_MAX_WINDOWS");
  if (MaxWin && *MaxWin) {
    V = 0;
    if (!envInt("RAMC_MAX_WINDOWS", V, Err))
      return false;
    if (V < 1 || V > static_cast<int64_t>(kMaxWindows)) {
      Err = format("RAMC_MAX_WINDOWS=%lld is outside 1..%u",
                   static_cast<long long>(V), kMaxWindows);
      return false;
    }
    MaxWindows = static_cast<size_t>(V);
  }
  if (!C)
    return true;
  if (C->provider)
    Provider = C->provider;
  if (C->notify < RAMC_NOTIFY_AUTO || C->notify > RAMC_NOTIFY_CQ_DATA) {
    Err = format("options.notify=%d is not a RAMC_NOTIFY_* value", C->notify);
    return false;
  }
  if (C->notify != RAMC_NOTIFY_AUTO)
    Notify = static_cast<NotifyMode>(C->notify);
  if (C->bootstrap < RAMC_BOOTSTRAP_AUTO ||
      C->bootstrap > RAMC_BOOTSTRAP_SINGLE) {
    Err = format("options.bootstrap=%d is not a RAMC_BOOTSTRAP_* value",
                 C->bootstrap);
    return false;
  }
  BootstrapKind = C->bootstrap;
  if (C->default_timeout_ms >= 0)
    DefaultTimeoutMs = C->default_timeout_ms;
  if (C->delivery_complete >= 0)
    DeliveryComplete = C->delivery_complete != 0;
  return true;
}

Deadline::Deadline(int64_t Ms)
    : Ms(Ms),
      End(transportClock() + (Ms > 0 ? Ms * 1e-3 + transportClockTick() : 0)) {}

bool Deadline::expired() const { return Ms >= 0 && transportClock() >= End; }

int Context::fail(int Code, const char *Fmt, ...) {
  char Buf[1024];
  va_list Args;
  va_start(Args, Fmt);
  std::vsnprintf(Buf, sizeof(Buf), Fmt, Args);
  va_end(Args);
  return Err.fail(Code, "%s", Buf);
}

int64_t Context::timeoutFor(int64_t Ms) const {
  if (Ms == RAMC_TIMEOUT_DEFAULT)
    return Opts.DefaultTimeoutMs;
  if (Ms == RAMC_TIMEOUT_INFINITE)
    return -1;
  return Ms < 0 ? Opts.DefaultTimeoutMs : Ms;
}

namespace {
// What each process publishes through the bootstrap.
struct EndpointRecord {
  uint32_t Magic;
  uint32_t AddrLen;
  uint64_t CtrlKey;
  uint64_t CtrlBase;
  // The process, for liveness checks by peers on the same host.
  uint64_t Host;
  uint64_t Start;
  uint32_t Pid;
  uint32_t Reserved;
};
constexpr uint32_t kRecordMagic = 0x52414d32; // "RAM2"
} // namespace

Context::Context() : Tr(createTransport()) {}

int Context::init(const Options &O) {
  Opts = O;
  std::string E;
  Boot = createBootstrap(Opts.BootstrapKind, E);
  if (!Boot)
    return fail(RAMC_ERROR, "ramc_init: bootstrap failed: %s", E.c_str());
  Rank = Boot->rank();
  Size = Boot->size();
  TransportOptions TO;
  TO.Provider = Opts.Provider;
  TO.Notify = Opts.Notify;
  TO.DeliveryComplete = Opts.DeliveryComplete;
  TO.Wait = Opts.Wait;
  TO.DirectWrites = Opts.DirectWrites;
  if (!Tr->open(TO, E))
    return fail(RAMC_ERROR, "ramc_init on rank %d: %s", Rank, E.c_str());

  if (!Opts.MaxWindows)
    Opts.MaxWindows = Tr->defaultMaxWindows();
  Layout = ControlLayout(Opts.MaxWindows, Tr->scratchSlots());
  Limits.MaxMsg = Tr->maxMsgSize();
  Limits.InjectMax = Tr->deliveryComplete() ? 0 : Tr->injectSize();
  Limits.CqData = Tr->notify() == NotifyMode::CqData;
  Limits.LocalMr = Tr->needsLocalMr();
  initAggregation();
  initNotifyRuns();
  initWaiting();
  Ctrl = static_cast<uint8_t *>(std::aligned_alloc(4096, Layout.Total));
  if (!Ctrl)
    return fail(RAMC_ERROR, "ramc_init: out of memory for the control region");
  std::memset(Ctrl, 0, Layout.Total);
  MyBoard = reinterpret_cast<Board *>(Ctrl + Layout.BoardOff);
  boardBeginUpdate(*MyBoard);
  MyBoard->State = RAMC_BB_STATUS_INACTIVE;
  boardEndUpdate(*MyBoard);
  for (uint32_t I = 0; I < Opts.MaxWindows; ++I)
    publishStatus(I, RAMC_TARGET_STATUS_DESTROYED, kNoChannel);
  uint64_t *AckSrc = reinterpret_cast<uint64_t *>(Ctrl + Layout.AckSrcOff);
  AckSrc[0] = static_cast<uint64_t>(Rank) + 1;
  AckSrc[1] = 1; // operand of atomic increments
  AckSrc[2] = 0; // where a fetching atomic increment lands the old value
  if (!Tr->registerMemory(Ctrl, Layout.Total, true, CtrlMr, E))
    return fail(RAMC_ERROR, "ramc_init on rank %d: control region: %s", Rank,
                E.c_str());

  std::vector<uint8_t> Addr = Tr->localAddress(E);
  if (Addr.empty())
    return fail(RAMC_ERROR, "ramc_init on rank %d: %s", Rank, E.c_str());
  const ProcessIdentity &Me = selfIdentity();
  EndpointRecord R{kRecordMagic, static_cast<uint32_t>(Addr.size()),
                   CtrlMr.Key,   CtrlMr.RemoteBase,
                   Me.Host,      Me.Start,
                   Me.Pid,       0};
  std::vector<uint8_t> Blob(sizeof(R) + Addr.size());
  std::memcpy(Blob.data(), &R, sizeof(R));
  std::memcpy(Blob.data() + sizeof(R), Addr.data(), Addr.size());
  // Keys differ per context; every process creates its k-th context with
  // its k-th bootstrap.
  std::string Key = "ramc.ep." + std::to_string(Boot->serial());
  if (!Boot->put(Key, Blob, E) || !Boot->fence(E))
    return fail(RAMC_ERROR, "ramc_init on rank %d: %s bootstrap: %s", Rank,
                Boot->name(), E.c_str());
  EpKey = Key;
  Description = Tr->describe() + " bootstrap=" + Boot->name() +
                describeAggregation() + describeNotifyRuns();
  Ready = true;
  return RAMC_SUCCESS;
}

Context::~Context() {
  if (std::getenv("RAMC_VERBOSE"))
    std::fprintf(
        stderr, "ramc: rank %d: %llu put(s) sent in %llu message(s)%s\n", Rank,
        static_cast<unsigned long long>(PutsAccepted),
        static_cast<unsigned long long>(PutMessages),
        PutsDirect ? format(", %llu of them written directly",
                            static_cast<unsigned long long>(PutsDirect))
                         .c_str()
                   : "");
  releaseSendBuffers();
  for (Window &W : Windows)
    if (W.Live)
      Tr->release(W.Mr);
  for (MemRegion &R : Puts.LocalRegs)
    Tr->release(R);
  for (MemRegion &R : Gets.LocalRegs)
    Tr->release(R);
  Tr->release(CtrlMr);
  Tr->close();
  std::free(Ctrl);
}

Context::Peer *Context::resolve(int P, const char *Call, int &Code) {
  if (P < 0 || P >= Size) {
    Code = fail(RAMC_ERROR, "%s: rank %d is outside 0..%d (parameter rank)",
                Call, P, Size - 1);
    return nullptr;
  }
  Peer &Pe = Peers[P];
  if (Pe.Resolved)
    return &Pe;
  std::vector<uint8_t> Blob;
  std::string E;
  Code = RAMC_ERROR;
  if (!Boot->get(P, EpKey, Blob, E)) {
    fail(RAMC_ERROR, "%s: looking up rank %d: %s", Call, P, E.c_str());
    return nullptr;
  }
  EndpointRecord R;
  if (Blob.size() >= sizeof(R))
    std::memcpy(&R, Blob.data(), sizeof(R));
  if (Blob.size() < sizeof(R) || R.Magic != kRecordMagic ||
      Blob.size() != sizeof(R) + R.AddrLen) {
    fail(RAMC_ERROR, "%s: rank %d published a malformed address", Call, P);
    return nullptr;
  }
  std::vector<uint8_t> Addr(Blob.begin() + sizeof(R), Blob.end());
  if (!Tr->insertAddress(Addr, Pe.Addr, E)) {
    fail(RAMC_ERROR, "%s: adding rank %d's address: %s", Call, P, E.c_str());
    return nullptr;
  }
  Pe.CtrlKey = R.CtrlKey;
  Pe.CtrlBase = R.CtrlBase;
  Pe.Proc.Host = R.Host;
  Pe.Proc.Start = R.Start;
  Pe.Proc.Pid = R.Pid;
  Pe.Rank = P;
  Pe.Watched = Tr->peersAreProcesses() && Pe.Proc.Host &&
               Pe.Proc.Host == selfIdentity().Host;
  Pe.Resolved = true;
  Code = RAMC_SUCCESS;
  return &Pe;
}

int Context::barrier() {
  std::string E;
  Backoff B;
  Deadline D(Opts.DefaultTimeoutMs);
  bool TimedOut = false;
  // A peer that exited never arrives, yet the PMIx servers here release a
  // fence without a process that died. So the peers this process has
  // talked to are looked at: one gone before the barrier fails it; one
  // gone while waiting or once released fails it unless the bootstrap
  // says it had arrived (a process may leave right after a barrier).
  flushBatches("ramc_barrier");
  int Gone = firstGonePeer(/*Now=*/true);
  bool Ok = Gone < 0 && Boot->barrier(
                            [&] {
                              if (!Tr->progress(*this))
                                Tr->waitForEvent(B, D);
                              Gone = firstMissingPeer(/*Now=*/false);
                              TimedOut = D.expired();
                              return !TimedOut && Gone < 0;
                            },
                            E);
  if (Ok)
    Gone = firstMissingPeer(/*Now=*/true);
  if (Gone >= 0)
    return fail(RAMC_ERROR,
                "ramc_barrier on rank %d (%s bootstrap): rank %d (pid %u on "
                "this node) has exited (killed, or ended without finalizing "
                "RAMC) and cannot reach the barrier",
                Rank, Boot->name(), Gone, Peers[Gone].Proc.Pid);
  if (!Ok)
    return fail(
        TimedOut ? RAMC_TIMEOUT : RAMC_ERROR,
        "ramc_barrier on rank %d (%s bootstrap): %s%s", Rank, Boot->name(),
        E.c_str(),
        TimedOut ? format(" (%lld ms)", static_cast<long long>(D.ms())).c_str()
                 : "");
  return RAMC_SUCCESS;
}

int Context::progress() {
  flushBatches("ramc_progress");
  Tr->progress(*this);
  return RAMC_SUCCESS;
}

void Context::onTxDone(void *Op) {
  switch (opKind(Op)) {
  case OpKind::Put:
  case OpKind::Ack:
  case OpKind::Atomic:
    Puts.done(peerRef(opPeer(Op)));
    break;
  case OpKind::Get:
    Gets.done(peerRef(opPeer(Op)));
    break;
  case OpKind::Batch:
    releaseSendBuffer(opSeq(Op));
    Puts.done(peerRef(opPeer(Op)));
    break;
  case OpKind::Internal:
    if (opSeq(Op) == InternalSeq)
      InternalDone = true;
    break;
  }
}

void Context::onTxError(void *Op, int E, const std::string &Msg) {
  if (Op && opKind(Op) == OpKind::Internal) {
    if (opSeq(Op) == InternalSeq) {
      InternalDone = true;
      InternalErr = E ? E : EIO;
      InternalMsg = Msg;
    }
    return;
  }
  if (Op)
    onTxDone(Op);
  if (TxFailed)
    return; // report the first one
  if (explainedByGonePeer(Op))
    return; // its exit was reported: told once
  TxFailed = true;
  TxPeer = Op ? opPeer(Op) : -1;
  if (Op)
    TxMsg = format("%s to rank %d failed: %s (%s)", opName(opKind(Op)),
                   opPeer(Op), Msg.c_str(), transportError(E).c_str());
  else
    TxMsg = format("an injected operation failed: %s (%s)%s", Msg.c_str(),
                   transportError(E).c_str(), goneSuspect().c_str());
}

Context::Window *Context::channelWindow(uint32_t Chan) {
  uint32_t I = channelIndex(Chan);
  if (I < Windows.size() && Windows[I].Live &&
      makeChannel(I, Windows[I].Gen) == Chan)
    return &Windows[I];
  return nullptr; // destroyed since (its operations are dropped)
}

void Context::onRemoteData(uint64_t Data) {
  uint32_t Payload = dataPayload(Data);
  switch (dataKind(Data)) {
  case DataKind::WindowOp:
    if (Window *W = channelWindow(Payload))
      W->Ops.add(1);
    break;
  case DataKind::WindowOps:
    if (Window *W = channelWindow(runChannel(Payload)))
      W->Ops.add(runCount(Payload));
    break;
  case DataKind::AttachAck:
    Attaches.add(1);
    noteAttacher(static_cast<int>(Payload));
    break;
  }
}

void Context::onRxError(int E, const std::string &Msg) {
  if (TxFailed || explainedByGonePeer(nullptr))
    return;
  TxFailed = true;
  TxPeer = -1;
  TxMsg = format("a receive completion reported an error: %s (%s)%s",
                 Msg.c_str(), transportError(E).c_str(), goneSuspect().c_str());
}

void Context::noteAttacher(int R) {
  for (int A : AttachedBy)
    if (A == R)
      return;
  if (AttachedBy.size() < 64)
    AttachedBy.push_back(R);
}

std::vector<int> Context::attacherRanks() const {
  std::vector<int> Ranks = AttachedBy;
  // In MR_COUNTER mode acks carry no data: each initiator wrote its rank + 1
  // into word (rank % kAckWords) of the acknowledgement area.
  const uint64_t *Ack =
      reinterpret_cast<const uint64_t *>(Ctrl + Layout.AckOff);
  for (unsigned I = 0; I < kAckWords; ++I) {
    uint64_t V = __atomic_load_n(&Ack[I], __ATOMIC_ACQUIRE);
    if (V && std::find(Ranks.begin(), Ranks.end(), int(V - 1)) == Ranks.end())
      Ranks.push_back(static_cast<int>(V - 1));
  }
  return Ranks;
}

std::string Context::attachers() const {
  std::vector<int> Ranks = attacherRanks();
  if (Ranks.empty())
    return "none known";
  std::string S = "ranks";
  for (int R : Ranks)
    S += " " + std::to_string(R);
  return S;
}

int Context::takeTxError(const char *Call) {
  if (!TxFailed)
    return RAMC_SUCCESS;
  TxFailed = false;
  return fail(RAMC_ERROR, "%s on rank %d: %s", Call, Rank, TxMsg.c_str());
}

void Context::publishStatus(uint32_t Index, uint64_t Value, uint64_t Chan) {
  auto *S = reinterpret_cast<StatusWord *>(Ctrl + Layout.statusOffset(Index));
  if (Chan == kNoChannel) {
    __atomic_store_n(&S->Value, Value, __ATOMIC_RELEASE);
    __atomic_store_n(&S->Chan, Chan, __ATOMIC_RELEASE);
  } else {
    __atomic_store_n(&S->Chan, Chan, __ATOMIC_RELEASE);
    __atomic_store_n(&S->Value, Value, __ATOMIC_RELEASE);
  }
}

int Context::readControl(int P, uint64_t ROff, size_t Len, void *&Landing,
                         const Deadline &D, const char *What,
                         const char *Call) {
  int Code;
  Peer *Pe = resolve(P, Call, Code);
  if (!Pe)
    return Code;
  uint32_t Slot = ScratchNext++ % Layout.ScratchSlots;
  Landing = Ctrl + Layout.ScratchOff + Slot * Layout.ScratchSlot;
  std::memset(Landing, 0, Len);
  ++InternalSeq;
  InternalDone = false;
  InternalErr = 0;
  RmaOp Read;
  Read.Local = Landing;
  Read.Len = Len;
  Read.Desc = CtrlMr.Desc;
  Read.Peer = Pe->Addr;
  Read.RAddr = Pe->CtrlBase + ROff;
  Read.Key = Pe->CtrlKey;
  Read.Op = encodeOp(OpKind::Internal, P, InternalSeq);
  std::string ReadOf = std::string("read of the ") + What;
  if (int Rc = post([&] { return Tr->read(Read); }, P, ReadOf.c_str(), D, Call))
    return Rc;
  Backoff B;
  while (!InternalDone) {
    if (!Tr->progress(*this))
      Tr->waitForEvent(B, D);
    if (!InternalDone && peerGone(P))
      return peerGoneError(P, Call, ReadOf.c_str());
    if (!InternalDone && D.expired())
      return fail(RAMC_TIMEOUT,
                  "%s: reading the %s of rank %d timed out after %lld ms (has "
                  "rank %d exited or stopped calling RAMC?)",
                  Call, What, P, static_cast<long long>(D.ms()), P);
  }
  if (InternalErr)
    return fail(RAMC_ERROR, "%s: reading the %s of rank %d failed: %s (%s)",
                Call, What, P, InternalMsg.c_str(),
                transportError(InternalErr).c_str());
  return RAMC_SUCCESS;
}

int Context::waitPending(PendingOps &P, const Deadline &D, const char *What,
                         const char *Call) {
  Backoff B;
  while (P.Done < P.Issued) {
    if (!Tr->progress(*this))
      Tr->waitForEvent(B, D);
    for (int R : P.Ranks)
      if (peerRef(R).Outstanding[P.Kind] && peerGone(R))
        return peerGoneError(R, Call, What);
    if (P.Done < P.Issued && D.expired()) {
      std::vector<int> Ranks = P.Ranks;
      std::sort(Ranks.begin(), Ranks.end());
      std::string Who;
      for (int R : Ranks)
        if (uint64_t N = peerRef(R).Outstanding[P.Kind])
          Who += format(" %d (%llu)", R, static_cast<unsigned long long>(N));
      return fail(RAMC_TIMEOUT,
                  "%s: %llu %s still outstanding after %lld ms, to rank(s)%s",
                  Call, static_cast<unsigned long long>(P.Issued - P.Done),
                  What, static_cast<long long>(D.ms()), Who.c_str());
    }
  }
  // Nothing is outstanding now: the list starts again.
  for (int R : P.Ranks)
    peerRef(R).Listed[P.Kind] = false;
  P.Ranks.clear();
  for (MemRegion &R : P.LocalRegs)
    Tr->release(R);
  P.LocalRegs.clear();
  std::vector<int> Injected;
  Injected.swap(P.InjectedTo);
  for (int R : Injected)
    if (peerGone(R, /*Now=*/true))
      return peerGoneError(
          R, Call, "operation(s) injected since the last completed wait");
  return takeTxError(Call);
}

bool Context::registerLocal(const void *Buf, size_t Len, PendingOps &P,
                            void *&Desc, const char *Call, int &Code) {
  MemRegion R;
  std::string E;
  if (!Tr->registerLocal(Buf, Len, R, E)) {
    Code = fail(RAMC_ERROR, "%s: %s", Call, E.c_str());
    return false;
  }
  Desc = R.Desc;
  P.LocalRegs.push_back(R);
  return true;
}

const char *opName(OpKind K) {
  switch (K) {
  case OpKind::Put:
    return "put";
  case OpKind::Get:
    return "get";
  case OpKind::Internal:
    return "status read";
  case OpKind::Ack:
    return "attach acknowledgement";
  case OpKind::Atomic:
    return "atomic increment";
  case OpKind::Batch:
    return "batch of aggregated puts";
  }
  return "operation";
}

} // namespace ramc
