//===- target.cpp - windows a process exposes, and its bulletin board -----===//
#include "context.h"

#include "backoff.h"

#include <cstddef>
#include <cstdint>

namespace ramc {

Context::Window *Context::window(ramc_target_t T, const char *Call, int &Code) {
  uint32_t I = handleSlot(T);
  if (handleIs(T, HandleKind::Target) && I < Windows.size() &&
      Windows[I].Live && Windows[I].Gen == handleGen(T))
    return &Windows[I];
  Code = fail(RAMC_ERROR,
              "%s on rank %d: window handle %#llx is not a live window of "
              "this process (destroyed already, or never created)",
              Call, Rank, static_cast<unsigned long long>(T));
  return nullptr;
}

int Context::targetCreate(void *Buf, size_t Len, uint64_t Tag, uint64_t Init,
                          ramc_target_t &Out, const char *Call) {
  if (!Buf)
    return fail(RAMC_ERROR, "%s on rank %d: buffer is NULL (parameter buf)",
                Call, Rank);
  if (Len == 0)
    return fail(RAMC_ERROR, "%s on rank %d: window length is 0 (parameter len)",
                Call, Rank);
  // No object is larger than PTRDIFF_MAX bytes, and none wraps around the
  // end of the address space. Providers that do not pin memory (sockets,
  // shm) would register such a window, and peers could then write far past
  // the buffer.
  uintptr_t Base = reinterpret_cast<uintptr_t>(Buf);
  if (Len > static_cast<size_t>(PTRDIFF_MAX) || Base > UINTPTR_MAX - Len)
    return fail(RAMC_ERROR,
                "%s on rank %d: a window of %zu bytes at %p %s (parameter "
                "len: pass the size of the buffer in bytes)",
                Call, Rank, Len, Buf,
                Base > UINTPTR_MAX - Len
                    ? "would wrap around the end of the address space"
                    : "is larger than any object in the address space");
  uint32_t I;
  if (!FreeWindows.empty() &&
      (Windows.size() >= Opts.MaxWindows || FreeWindows.size() > 64)) {
    I = FreeWindows.front();
    FreeWindows.pop_front();
  } else if (Windows.size() < Opts.MaxWindows) {
    I = static_cast<uint32_t>(Windows.size());
    Windows.emplace_back();
  } else {
    return fail(RAMC_ERROR,
                "%s on rank %d: too many windows (RAMC_MAX_WINDOWS=%zu)", Call,
                Rank, Opts.MaxWindows);
  }
  Window &W = Windows[I];
  std::string E;
  if (!Tr->registerMemory(Buf, Len, true, W.Mr, E)) {
    FreeWindows.push_back(I);
    return fail(RAMC_ERROR, "%s on rank %d (tag %llu): %s", Call, Rank,
                static_cast<unsigned long long>(Tag), E.c_str());
  }
  W.Live = true;
  ++W.Gen;
  W.Tag = Tag;
  W.Buf = Buf;
  W.Len = Len;
  W.Ops = ConsumeCounter();
  W.PostedSlot = -1;
  publishStatus(I, Init, makeChannel(I, W.Gen));
  Out = makeHandle(HandleKind::Target, I, W.Gen);
  return RAMC_SUCCESS;
}

int Context::targetDestroy(ramc_target_t T, const char *Call) {
  int Code;
  Window *W = window(T, Call, Code);
  if (!W)
    return Code;
  uint32_t I = handleSlot(T);
  if (W->PostedSlot >= 0)
    targetUnpost(T, Call);
  publishStatus(I, RAMC_TARGET_STATUS_DESTROYED, kNoChannel);
  Tr->release(W->Mr);
  W->Live = false;
  FreeWindows.push_back(I);
  return RAMC_SUCCESS;
}

int Context::targetPost(ramc_target_t T, const char *Call) {
  int Code;
  Window *W = window(T, Call, Code);
  if (!W)
    return Code;
  uint32_t I = handleSlot(T);
  Board &B = *MyBoard;
  int Slot = W->PostedSlot;
  if (Slot < 0)
    for (unsigned S = 0; S < kBoardSlots; ++S)
      if (!B.Slots[S].Present) {
        Slot = static_cast<int>(S);
        break;
      }
  if (Slot < 0)
    return fail(RAMC_ERROR,
                "%s on rank %d (tag %llu): the bulletin board is full (%u "
                "windows posted; deactivate it or unpost one first)",
                Call, Rank, static_cast<unsigned long long>(W->Tag),
                kBoardSlots);
  boardBeginUpdate(B);
  BoardSlot &S = B.Slots[Slot];
  S.Present = 1;
  S.Tag = W->Tag;
  S.Key = W->Mr.Key;
  S.Addr = W->Mr.RemoteBase;
  S.Len = W->Len;
  S.Chan = makeChannel(I, W->Gen);
  S.StatusOff = Layout.statusOffset(I);
  S.PostSerial = ++B.Serial;
  boardEndUpdate(B);
  W->PostedSlot = Slot;
  return RAMC_SUCCESS;
}

int Context::targetUnpost(ramc_target_t T, const char *Call) {
  int Code;
  Window *W = window(T, Call, Code);
  if (!W)
    return Code;
  if (W->PostedSlot < 0)
    return RAMC_SUCCESS;
  boardBeginUpdate(*MyBoard);
  MyBoard->Slots[W->PostedSlot] = BoardSlot();
  boardEndUpdate(*MyBoard);
  W->PostedSlot = -1;
  return RAMC_SUCCESS;
}

int Context::bbActivate(bool On, const char *Call) {
  boardBeginUpdate(*MyBoard);
  MyBoard->State = On ? RAMC_BB_STATUS_ACTIVE : RAMC_BB_STATUS_INACTIVE;
  if (!On) // deactivating withdraws every posting
    for (BoardSlot &S : MyBoard->Slots)
      S = BoardSlot();
  boardEndUpdate(*MyBoard);
  if (!On)
    for (Window &W : Windows)
      W.PostedSlot = -1;
  return RAMC_SUCCESS;
}

int Context::targetSetStatus(ramc_target_t T, uint64_t V, bool Add,
                             const char *Call) {
  int Code;
  Window *W = window(T, Call, Code);
  if (!W)
    return Code;
  uint32_t I = handleSlot(T);
  auto *S = reinterpret_cast<StatusWord *>(Ctrl + Layout.statusOffset(I));
  uint64_t New = Add ? S->Value + V : V;
  publishStatus(I, New, makeChannel(I, W->Gen));
  return RAMC_SUCCESS;
}

int Context::targetStatus(ramc_target_t T, uint64_t &V, const char *Call) {
  int Code;
  if (!window(T, Call, Code))
    return Code;
  auto *S =
      reinterpret_cast<StatusWord *>(Ctrl + Layout.statusOffset(handleSlot(T)));
  V = __atomic_load_n(&S->Value, __ATOMIC_ACQUIRE);
  return RAMC_SUCCESS;
}

/// Brings an arrival count up to date from its region's counter (MR_COUNTER
/// mode; in CQ_DATA mode progress() already counted the arrivals).
static void refresh(Transport &Tr, const MemRegion &Mr, ConsumeCounter &C,
                    uint64_t &Errors) {
  uint64_t Count = 0;
  if (Tr.notify() == NotifyMode::MrCounter && Tr.readCounter(Mr, Count, Errors))
    C.observe(Count);
}

int Context::targetTest(ramc_target_t T, uint64_t N, const char *Call) {
  int Code;
  Window *W = window(T, Call, Code);
  if (!W)
    return Code;
  flushBatches(Call);
  Tr->progress(*this);
  uint64_t Errors = 0;
  refresh(*Tr, W->Mr, W->Ops, Errors);
  if (Errors)
    return fail(RAMC_ERROR,
                "%s on rank %d (window tag %llu): the window's counter "
                "reports %llu failed operations",
                Call, Rank, static_cast<unsigned long long>(W->Tag),
                static_cast<unsigned long long>(Errors));
  if (int Rc = takeTxError(Call))
    return Rc;
  return W->Ops.test(N) ? RAMC_SUCCESS : RAMC_FAILURE;
}

int Context::targetWait(ramc_target_t T, uint64_t N, int64_t Ms,
                        const char *Call) {
  Deadline D(timeoutFor(Ms));
  Backoff Wait;
  for (;;) {
    int Rc = targetTest(T, N, Call);
    if (Rc != RAMC_FAILURE)
      return Rc;
    if (D.expired()) {
      Window &W = Windows[handleSlot(T)];
      return fail(RAMC_TIMEOUT,
                  "%s on rank %d (window tag %llu): %llu of %llu expected "
                  "operations arrived within %lld ms; initiators that "
                  "attached here: %s (one may have exited)%s",
                  Call, Rank, static_cast<unsigned long long>(W.Tag),
                  static_cast<unsigned long long>(W.Ops.available()),
                  static_cast<unsigned long long>(N),
                  static_cast<long long>(D.ms()), attachers().c_str(),
                  goneAttachers().c_str());
    }
    Tr->waitForEvent(Wait, D);
  }
}

int Context::targetCounts(ramc_target_t T, uint64_t &Arrived,
                          uint64_t &Consumed, const char *Call) {
  int Code;
  Window *W = window(T, Call, Code);
  if (!W)
    return Code;
  flushBatches(Call);
  Tr->progress(*this);
  uint64_t Errors = 0;
  refresh(*Tr, W->Mr, W->Ops, Errors);
  Arrived = W->Ops.arrived();
  Consumed = W->Ops.consumed();
  return RAMC_SUCCESS;
}

int Context::bbTestAttaches(uint64_t N, const char *Call) {
  flushBatches(Call);
  Tr->progress(*this);
  uint64_t Errors = 0;
  refresh(*Tr, CtrlMr, Attaches, Errors);
  if (int Rc = takeTxError(Call))
    return Rc;
  return Attaches.test(N) ? RAMC_SUCCESS : RAMC_FAILURE;
}

int Context::bbWaitAttaches(uint64_t N, int64_t Ms, const char *Call) {
  Deadline D(timeoutFor(Ms));
  Backoff Wait;
  for (;;) {
    int Rc = bbTestAttaches(N, Call);
    if (Rc != RAMC_FAILURE)
      return Rc;
    if (D.expired())
      return fail(RAMC_TIMEOUT,
                  "%s on rank %d: %llu of %llu expected attaches arrived "
                  "within %lld ms; attached so far: %s",
                  Call, Rank,
                  static_cast<unsigned long long>(Attaches.available()),
                  static_cast<unsigned long long>(N),
                  static_cast<long long>(D.ms()), attachers().c_str());
    Tr->waitForEvent(Wait, D);
  }
}

} // namespace ramc
