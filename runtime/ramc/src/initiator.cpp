//===- initiator.cpp - attachments to remote windows and data movement ----===//
#include "context.h"

#include "backoff.h"

#include <cstring>

namespace ramc {

Context::Attachment *Context::notAttached(ramc_initiator_t H, const char *Call,
                                          int &Code) {
  Code = fail(RAMC_ERROR,
              "%s on rank %d: initiator handle %#llx is not attached (detached "
              "already, or never attached)",
              Call, Rank, static_cast<unsigned long long>(H));
  return nullptr;
}

int Context::bbRead(int P, Board &Snap, const char *Call) {
  flushBatches(Call);
  Deadline D(Opts.DefaultTimeoutMs);
  for (;;) {
    void *Landing = nullptr;
    if (int Rc = readControl(P, Layout.BoardOff, sizeof(Board), Landing, D,
                             "bulletin board", Call))
      return Rc;
    std::memcpy(&Snap, Landing, sizeof(Board));
    if (boardSnapshotValid(Snap))
      return RAMC_SUCCESS;
    if (D.expired()) // the owner kept updating, or the region is garbage
      return fail(RAMC_TIMEOUT,
                  "%s: no consistent copy of rank %d's bulletin board "
                  "within %lld ms",
                  Call, P, static_cast<long long>(D.ms()));
  }
}

int Context::attach(int P, uint64_t Tag, bool AnyTag, uint64_t Init, int64_t Ms,
                    ramc_initiator_t &Out, const char *Call) {
  Deadline D(timeoutFor(Ms));
  Board B;
  int Slot = -1;
  Backoff Wait;
  for (;;) {
    if (int Rc = bbRead(P, B, Call))
      return Rc;
    if (B.State == RAMC_BB_STATUS_ACTIVE)
      Slot = AnyTag ? boardLatest(B) : boardFind(B, Tag);
    if (Slot >= 0)
      break;
    if (Ms == 0 || D.expired()) {
      int Code = Ms == 0 ? RAMC_FAILURE : RAMC_TIMEOUT;
      const char *Why = B.State != RAMC_BB_STATUS_ACTIVE
                            ? "its bulletin board is inactive"
                            : "no window with that tag is posted";
      if (AnyTag)
        return fail(Code, "%s: rank %d has no posted window: %s", Call, P, Why);
      return fail(Code,
                  "%s: rank %d has not posted a window with tag %llu "
                  "(%s)%s",
                  Call, P, static_cast<unsigned long long>(Tag), Why,
                  Ms == 0 ? "" : " before the deadline");
    }
    Tr->pollAgain(Wait);
  }
  const BoardSlot &S = B.Slots[Slot];
  uint32_t I;
  if (!FreeAttachments.empty()) {
    I = FreeAttachments.back();
    FreeAttachments.pop_back();
  } else {
    I = static_cast<uint32_t>(Attachments.size());
    Attachments.emplace_back();
  }
  Attachment &A = Attachments[I];
  A.Live = true;
  ++A.Gen;
  A.Peer = P;
  A.PeerAddress = Peers[P].Addr;
  A.Tag = S.Tag;
  A.Key = S.Key;
  A.Addr = S.Addr;
  A.Len = S.Len;
  A.Chan = static_cast<uint32_t>(S.Chan);
  A.StatusAddr = S.StatusOff;
  A.Expected = Init;
  Out = makeHandle(HandleKind::Initiator, I, A.Gen);

  // Acknowledge the attach: a small write into the target's control region,
  // counted there (CQ data or the control region's MR counter).
  bool Inject = Limits.InjectMax >= 8;
  RmaOp Ack = ackWrite(P);
  Ack.Op = Inject ? nullptr : encodeOp(OpKind::Ack, P, 0);
  Ack.HasData = Tr->notify() == NotifyMode::CqData;
  Ack.Data = encodeAttachAck(static_cast<uint32_t>(Rank));
  if (!Inject)
    Puts.issue(Peers[P]);
  int Rc = post([&] { return Tr->write(Ack); }, P, "attach acknowledgement", D,
                Call);
  if (Rc) {
    if (!Inject)
      Puts.unissue(Peers[P]);
    A.Live = false;
    FreeAttachments.push_back(I);
  } else if (Inject) {
    Puts.injected(P);
  }
  return Rc;
}

int Context::detach(ramc_initiator_t H, const char *Call) {
  int Code;
  Attachment *A = attachment(H, Call, Code);
  if (!A)
    return Code;
  A->Live = false;
  FreeAttachments.push_back(handleSlot(H));
  return RAMC_SUCCESS;
}

int Context::info(ramc_initiator_t H, int &P, uint64_t &Tag, size_t &Len,
                  const char *Call) {
  int Code;
  Attachment *A = attachment(H, Call, Code);
  if (!A)
    return Code;
  P = A->Peer;
  Tag = A->Tag;
  Len = A->Len;
  return RAMC_SUCCESS;
}

int Context::expected(ramc_initiator_t H, uint64_t &V, const char *Call) {
  int Code;
  Attachment *A = attachment(H, Call, Code);
  if (!A)
    return Code;
  V = A->Expected;
  return RAMC_SUCCESS;
}

int Context::setExpected(ramc_initiator_t H, uint64_t V, bool Add,
                         const char *Call) {
  int Code;
  Attachment *A = attachment(H, Call, Code);
  if (!A)
    return Code;
  A->Expected = Add ? A->Expected + V : V;
  return RAMC_SUCCESS;
}

int Context::readStatus(ramc_initiator_t H, uint64_t &V, const char *Call) {
  int Code;
  Attachment *A = attachment(H, Call, Code);
  if (!A)
    return Code;
  flushBatches(Call);
  Deadline D(Opts.DefaultTimeoutMs);
  void *Landing = nullptr;
  if (int Rc = readControl(A->Peer, A->StatusAddr, sizeof(StatusWord), Landing,
                           D, "window status", Call))
    return Rc;
  StatusWord S;
  std::memcpy(&S, Landing, sizeof(S));
  if (S.Chan != A->Chan) {
    V = RAMC_TARGET_STATUS_DESTROYED;
    return fail(RAMC_ERROR,
                "%s: the window with tag %llu on rank %d was destroyed", Call,
                static_cast<unsigned long long>(A->Tag), A->Peer);
  }
  V = S.Value;
  return RAMC_SUCCESS;
}

int Context::check(ramc_initiator_t H, int &Relation, const char *Call) {
  uint64_t V = 0;
  if (int Rc = readStatus(H, V, Call))
    return Rc;
  uint64_t E = Attachments[handleSlot(H)].Expected;
  Relation =
      V == E ? RAMC_SUCCESS : (V < E ? RAMC_TARGET_BEHIND : RAMC_TARGET_AHEAD);
  return RAMC_SUCCESS;
}

int Context::waitStatus(ramc_initiator_t H, int64_t Ms, const char *Call) {
  Deadline D(timeoutFor(Ms));
  Backoff Wait;
  for (;;) {
    int Relation = RAMC_SUCCESS;
    if (int Rc = check(H, Relation, Call))
      return Rc;
    if (Relation == RAMC_SUCCESS)
      return RAMC_SUCCESS;
    if (D.expired()) {
      const Attachment &A = Attachments[handleSlot(H)];
      return fail(RAMC_TIMEOUT,
                  "%s: rank %d's window (tag %llu) did not reach status %llu "
                  "within %lld ms",
                  Call, A.Peer, static_cast<unsigned long long>(A.Tag),
                  static_cast<unsigned long long>(A.Expected),
                  static_cast<long long>(D.ms()));
    }
    Tr->pollAgain(Wait);
  }
}

/// Checks that [Off, Off+Len) lies inside the window.
static bool inBounds(uint64_t WinLen, size_t Off, size_t Len) {
  return Off <= WinLen && Len <= WinLen - Off;
}

int Context::transferError(const Attachment &A, const void *Buf, size_t Len,
                           size_t Off, const char *Call, bool IsPut) {
  const char *Dir = IsPut ? "to" : "from";
  if (!Buf)
    return fail(RAMC_ERROR, "%s %s rank %d: %s buffer is NULL", Call, Dir,
                A.Peer, IsPut ? "source" : "destination");
  if (!inBounds(A.Len, Off, Len))
    return fail(RAMC_ERROR,
                "%s %s rank %d: %zu bytes at offset %zu run past the end of "
                "the window (tag %llu, %llu bytes) (parameters len, offset)",
                Call, Dir, A.Peer, Len, Off,
                static_cast<unsigned long long>(A.Tag),
                static_cast<unsigned long long>(A.Len));
  return fail(RAMC_ERROR,
              "%s %s rank %d: %zu bytes exceed the provider's max_msg_size "
              "%zu",
              Call, Dir, A.Peer, Len, Limits.MaxMsg);
}

int Context::put(ramc_initiator_t H, const void *Src, size_t Len, size_t Off,
                 bool NonBlocking, const char *Call) {
  int Code;
  Attachment *A = attachment(H, Call, Code);
  if (!A)
    return Code;
  if (Len == 0)
    return RAMC_SUCCESS; // nothing moves and nothing is counted
  if (int Rc = checkTransfer(*A, Src, Len, Off, Call, /*IsPut=*/true))
    return Rc;
  ++PutsAccepted;
  int P = A->Peer;
  if (NonBlocking && aggregates(Src, Len)) {
    bool Staged = false;
    if (int Rc = stagePut(*A, Src, Len, Off, Call, Staged))
      return Rc;
    if (Staged)
      return RAMC_SUCCESS;
  }
  // Puts staged for this peer leave first (all staged puts before a wait).
  if (NonBlocking) {
    if (int Rc = shipBatch(P, Call))
      return Rc;
  } else if (int Rc = flushBatches(Call, /*Report=*/true)) {
    return Rc;
  }
  RmaOp Put = rmaOp(*A, Src, Len, Off);
  Put.HasData = Limits.CqData;
  Put.Data = encodeWindowOp(A->Chan);
  LazyDeadline Posting(Opts.DefaultTimeoutMs);
  if (Len <= Limits.InjectMax) {
    int Rc = post([&] { return Tr->write(Put); }, P, "put", Posting, Call);
    if (Rc == RAMC_SUCCESS) {
      Puts.injected(P);
      ++PutMessages;
    }
    return Rc;
  }
  if (!localDesc(Src, Len, Puts, Put.Desc, Call, Code))
    return Code;
  if (NonBlocking && holdsPut(*A, Len))
    return holdPut(P, A->Chan, Put, Call);
  Put.Op = encodeOp(OpKind::Put, P, 0);
  if (int Rc = postTracked(
          Puts, [&] { return Tr->write(Put); }, P, "put", Posting, Call))
    return Rc;
  ++PutMessages;
  if (NonBlocking)
    return RAMC_SUCCESS;
  return waitPending(Puts, Deadline(Opts.DefaultTimeoutMs), "put(s)", Call);
}

RmaOp Context::rmaOp(const Attachment &A, const void *Local, size_t Len,
                     size_t Off) {
  RmaOp Op;
  Op.Local = Local;
  Op.Len = Len;
  Op.Peer = A.PeerAddress;
  Op.RAddr = A.Addr + Off;
  Op.Key = A.Key;
  return Op;
}

RmaOp Context::ackWrite(int P) {
  const Peer &Pe = Peers[P];
  RmaOp Op;
  Op.Local = Ctrl + Layout.AckSrcOff;
  Op.Len = 8;
  Op.Desc = CtrlMr.Desc;
  Op.Peer = Pe.Addr;
  Op.RAddr = Pe.CtrlBase + Layout.AckOff + 8 * (Rank % kAckWords);
  Op.Key = Pe.CtrlKey;
  return Op;
}

int Context::get(ramc_initiator_t H, void *Dst, size_t Len, size_t Off,
                 bool NonBlocking, const char *Call) {
  int Code;
  Attachment *A = attachment(H, Call, Code);
  if (!A)
    return Code;
  if (Len == 0)
    return RAMC_SUCCESS;
  if (int Rc = checkTransfer(*A, Dst, Len, Off, Call, /*IsPut=*/false))
    return Rc;
  flushBatches(Call);
  int P = A->Peer;
  RmaOp Get = rmaOp(*A, Dst, Len, Off);
  Get.Op = encodeOp(OpKind::Get, P, 0);
  if (!localDesc(Dst, Len, Gets, Get.Desc, Call, Code))
    return Code;
  Deadline D(Opts.DefaultTimeoutMs);
  if (int Rc = postTracked(
          Gets, [&] { return Tr->read(Get); }, P, "get", D, Call))
    return Rc;
  if (NonBlocking)
    return RAMC_SUCCESS;
  return waitPending(Gets, D, "get(s)", Call);
}

int Context::atomicInc(ramc_initiator_t H, size_t Off, const char *Call) {
  int Code;
  Attachment *A = attachment(H, Call, Code);
  if (!A)
    return Code;
  if (!Tr->hasAtomics())
    return fail(RAMC_ERROR, "%s to rank %d: provider %s has no atomics", Call,
                A->Peer, Tr->providerName().c_str());
  if (!inBounds(A->Len, Off, 8) || Off % 8)
    return fail(RAMC_ERROR,
                "%s to rank %d: offset %zu is not an aligned uint64_t inside "
                "the window (tag %llu, %llu bytes) (parameter offset)",
                Call, A->Peer, Off, static_cast<unsigned long long>(A->Tag),
                static_cast<unsigned long long>(A->Len));
  int P = A->Peer;
  flushBatches(Call);
  Deadline D(Opts.DefaultTimeoutMs);
  // Counted at the target like a put. An MR counter counts the atomic
  // itself. Providers do not carry remote CQ data on atomics (shm drops it,
  // tcp;ofi_rxm refuses it), so in CQ_DATA mode the atomic completes first
  // (delivery complete) and then an 8-byte write into the target's
  // acknowledgement word carries the window's channel id.
  bool CqData = Tr->notify() == NotifyMode::CqData;
  uint64_t *Words = reinterpret_cast<uint64_t *>(Ctrl + Layout.AckSrcOff);
  RmaOp Inc = rmaOp(*A, Words + 1, 8, Off);
  Inc.Desc = CtrlMr.Desc;
  Inc.Result = Words + 2; // one atomic at a time: it completes before the next
  Inc.Op = encodeOp(OpKind::Atomic, P, 0);
  if (int Rc = postTracked(
          Puts,
          [&] { return Tr->atomicInc(Inc, CqData || Tr->deliveryComplete()); },
          P, "atomic increment", D, Call))
    return Rc;
  if (int Rc = waitPending(Puts, D, "put(s)", Call))
    return Rc;
  if (!CqData)
    return RAMC_SUCCESS;
  RmaOp Note = ackWrite(P);
  Note.Op = encodeOp(OpKind::Put, P, 0);
  Note.HasData = true;
  Note.Data = encodeWindowOp(A->Chan);
  if (int Rc = postTracked(
          Puts, [&] { return Tr->write(Note); }, P,
          "atomic increment's notification", D, Call))
    return Rc;
  return waitPending(Puts, D, "put(s)", Call);
}

int Context::waitPuts(int64_t Ms, const char *Call) {
  if (int Rc = flushBatches(Call, /*Report=*/true))
    return Rc;
  return waitPending(Puts, Deadline(timeoutFor(Ms)), "put(s)", Call);
}

int Context::waitGets(int64_t Ms, const char *Call) {
  flushBatches(Call);
  return waitPending(Gets, Deadline(timeoutFor(Ms)), "get(s)", Call);
}

} // namespace ramc
