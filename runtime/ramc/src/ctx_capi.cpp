//===- ctx_capi.cpp - the C form of the context API -----------------------===//
#include "ctx_handle.h"

#include <cstdio>
#include <new>

using ramc::Context;

static Context *impl(ramc_ctx_t *C) { return C ? &C->Impl : nullptr; }

#define RAMC_CTX_OR_FAIL(C)                                                    \
  Context *X = impl(C);                                                        \
  if (!X)                                                                      \
    return RAMC_ERROR;

extern "C" {

void ramc_ctx_options_init(ramc_ctx_options_t *O) {
  if (!O)
    return;
  O->provider = nullptr;
  O->notify = RAMC_NOTIFY_AUTO;
  O->bootstrap = RAMC_BOOTSTRAP_AUTO;
  O->default_timeout_ms = -1;
  O->delivery_complete = -1;
}

int ramc_ctx_create(const ramc_ctx_options_t *O, ramc_ctx_t **Out, char *ErrBuf,
                    size_t ErrLen) {
  auto Report = [&](const char *Msg) {
    if (ErrBuf && ErrLen)
      std::snprintf(ErrBuf, ErrLen, "%s", Msg);
  };
  if (!Out) {
    Report("ramc_ctx_create: out is NULL (parameter out)");
    return RAMC_ERROR;
  }
  *Out = nullptr;
  ramc::Options Opts;
  std::string E;
  if (!Opts.load(O, E)) {
    Report(("ramc_ctx_create: " + E).c_str());
    return RAMC_ERROR;
  }
  auto *C = new (std::nothrow) ramc_ctx;
  if (!C) {
    Report("ramc_ctx_create: out of memory");
    return RAMC_ERROR;
  }
  int Rc = C->Impl.init(Opts);
  if (Rc) {
    Report(C->Impl.error());
    delete C;
    return Rc;
  }
  *Out = C;
  return RAMC_SUCCESS;
}

int ramc_ctx_destroy(ramc_ctx_t *C) {
  if (!C)
    return RAMC_ERROR;
  delete C;
  return RAMC_SUCCESS;
}

int ramc_ctx_rank(const ramc_ctx_t *C) { return C ? C->Impl.rank() : -1; }
int ramc_ctx_size(const ramc_ctx_t *C) { return C ? C->Impl.size() : 0; }
const char *ramc_ctx_error(const ramc_ctx_t *C) {
  return C ? C->Impl.error() : "ramc_ctx_error: context is NULL";
}
const char *ramc_ctx_provider(const ramc_ctx_t *C) {
  return C ? C->Impl.provider() : "";
}
const char *ramc_ctx_bootstrap_name(const ramc_ctx_t *C) {
  return C ? C->Impl.bootstrapName() : "";
}
int ramc_ctx_notify_mode(const ramc_ctx_t *C) {
  if (!C)
    return RAMC_NOTIFY_AUTO;
  return C->Impl.notify() == ramc::NotifyMode::MrCounter
             ? RAMC_NOTIFY_MR_COUNTER
             : RAMC_NOTIFY_CQ_DATA;
}
size_t ramc_ctx_inject_size(const ramc_ctx_t *C) {
  return C ? C->Impl.injectSize() : 0;
}
const char *ramc_ctx_describe(const ramc_ctx_t *C) {
  return C ? C->Impl.describeCStr() : "";
}
int ramc_ctx_barrier(ramc_ctx_t *C) {
  RAMC_CTX_OR_FAIL(C);
  return X->barrier();
}
int ramc_ctx_progress(ramc_ctx_t *C) {
  RAMC_CTX_OR_FAIL(C);
  return X->progress();
}
int ramc_ctx_set_default_timeout(ramc_ctx_t *C, int64_t Ms) {
  RAMC_CTX_OR_FAIL(C);
  X->setDefaultTimeout(Ms < 0 ? -1 : Ms);
  return RAMC_SUCCESS;
}

int ramc_target_create(ramc_ctx_t *C, void *Buf, size_t Len, uint64_t Tag,
                       uint64_t Init, ramc_target_t *Out) {
  RAMC_CTX_OR_FAIL(C);
  if (!Out)
    return X->fail(RAMC_ERROR,
                   "ramc_target_create: out is NULL (parameter out)");
  return X->targetCreate(Buf, Len, Tag, Init, *Out, "ramc_target_create");
}
int ramc_target_destroy(ramc_ctx_t *C, ramc_target_t T) {
  RAMC_CTX_OR_FAIL(C);
  return X->targetDestroy(T, "ramc_target_destroy");
}
int ramc_target_post(ramc_ctx_t *C, ramc_target_t T) {
  RAMC_CTX_OR_FAIL(C);
  return X->targetPost(T, "ramc_target_post");
}
int ramc_target_unpost(ramc_ctx_t *C, ramc_target_t T) {
  RAMC_CTX_OR_FAIL(C);
  return X->targetUnpost(T, "ramc_target_unpost");
}
int ramc_target_set_status(ramc_ctx_t *C, ramc_target_t T, uint64_t V) {
  RAMC_CTX_OR_FAIL(C);
  return X->targetSetStatus(T, V, false, "ramc_target_set_status");
}
int ramc_target_add_status(ramc_ctx_t *C, ramc_target_t T, uint64_t D) {
  RAMC_CTX_OR_FAIL(C);
  return X->targetSetStatus(T, D, true, "ramc_target_add_status");
}
int ramc_target_status(ramc_ctx_t *C, ramc_target_t T, uint64_t *V) {
  RAMC_CTX_OR_FAIL(C);
  uint64_t Tmp = 0;
  int Rc = X->targetStatus(T, Tmp, "ramc_target_status");
  if (V)
    *V = Tmp;
  return Rc;
}
int ramc_target_test(ramc_ctx_t *C, ramc_target_t T, uint64_t N) {
  RAMC_CTX_OR_FAIL(C);
  return X->targetTest(T, N, "ramc_target_test");
}
int ramc_target_wait(ramc_ctx_t *C, ramc_target_t T, uint64_t N, int64_t Ms) {
  RAMC_CTX_OR_FAIL(C);
  return X->targetWait(T, N, Ms, "ramc_target_wait");
}
int ramc_target_counts(ramc_ctx_t *C, ramc_target_t T, uint64_t *A,
                       uint64_t *Cons) {
  RAMC_CTX_OR_FAIL(C);
  uint64_t TA = 0, TC = 0;
  int Rc = X->targetCounts(T, TA, TC, "ramc_target_counts");
  if (A)
    *A = TA;
  if (Cons)
    *Cons = TC;
  return Rc;
}

int ramc_bb_activate(ramc_ctx_t *C) {
  RAMC_CTX_OR_FAIL(C);
  return X->bbActivate(true, "ramc_bb_activate");
}
int ramc_bb_deactivate(ramc_ctx_t *C) {
  RAMC_CTX_OR_FAIL(C);
  return X->bbActivate(false, "ramc_bb_deactivate");
}
int ramc_bb_test_attaches(ramc_ctx_t *C, uint64_t N) {
  RAMC_CTX_OR_FAIL(C);
  return X->bbTestAttaches(N, "ramc_bb_test_attaches");
}
int ramc_bb_wait_attaches(ramc_ctx_t *C, uint64_t N, int64_t Ms) {
  RAMC_CTX_OR_FAIL(C);
  return X->bbWaitAttaches(N, Ms, "ramc_bb_wait_attaches");
}

int ramc_bb_read(ramc_ctx_t *C, int Peer, uint8_t *State, uint64_t *Latest) {
  RAMC_CTX_OR_FAIL(C);
  ramc::Board B;
  int Rc = X->bbRead(Peer, B, "ramc_bb_read");
  if (Rc)
    return Rc;
  int L = ramc::boardLatest(B);
  if (State)
    *State = static_cast<uint8_t>(B.State);
  if (Latest)
    *Latest = L >= 0 ? B.Slots[L].Tag : 0;
  return RAMC_SUCCESS;
}
int ramc_bb_check(ramc_ctx_t *C, int Peer, uint64_t Tag) {
  RAMC_CTX_OR_FAIL(C);
  ramc::Board B;
  int Rc = X->bbRead(Peer, B, "ramc_bb_check");
  if (Rc)
    return Rc;
  return B.State == RAMC_BB_STATUS_ACTIVE && ramc::boardFind(B, Tag) >= 0
             ? RAMC_SUCCESS
             : RAMC_FAILURE;
}

int ramc_initiator_attach(ramc_ctx_t *C, int Peer, uint64_t Tag, uint64_t Init,
                          int64_t Ms, ramc_initiator_t *Out) {
  RAMC_CTX_OR_FAIL(C);
  if (!Out)
    return X->fail(RAMC_ERROR, "ramc_initiator_attach: out is NULL");
  return X->attach(Peer, Tag, false, Init, Ms, *Out, "ramc_initiator_attach");
}
int ramc_initiator_detach(ramc_ctx_t *C, ramc_initiator_t I) {
  RAMC_CTX_OR_FAIL(C);
  return X->detach(I, "ramc_initiator_detach");
}
int ramc_initiator_info(ramc_ctx_t *C, ramc_initiator_t I, int *Peer,
                        uint64_t *Tag, size_t *Len) {
  RAMC_CTX_OR_FAIL(C);
  int P = -1;
  uint64_t T = 0;
  size_t L = 0;
  int Rc = X->info(I, P, T, L, "ramc_initiator_info");
  if (Peer)
    *Peer = P;
  if (Tag)
    *Tag = T;
  if (Len)
    *Len = L;
  return Rc;
}
int ramc_initiator_expected(ramc_ctx_t *C, ramc_initiator_t I, uint64_t *V) {
  RAMC_CTX_OR_FAIL(C);
  uint64_t T = 0;
  int Rc = X->expected(I, T, "ramc_initiator_expected");
  if (V)
    *V = T;
  return Rc;
}
int ramc_initiator_set_expected(ramc_ctx_t *C, ramc_initiator_t I, uint64_t V) {
  RAMC_CTX_OR_FAIL(C);
  return X->setExpected(I, V, false, "ramc_initiator_set_expected");
}
int ramc_initiator_add_expected(ramc_ctx_t *C, ramc_initiator_t I, uint64_t D) {
  RAMC_CTX_OR_FAIL(C);
  return X->setExpected(I, D, true, "ramc_initiator_add_expected");
}
int ramc_initiator_read_status(ramc_ctx_t *C, ramc_initiator_t I, uint64_t *V) {
  RAMC_CTX_OR_FAIL(C);
  uint64_t T = 0;
  int Rc = X->readStatus(I, T, "ramc_initiator_read_status");
  if (V)
    *V = T;
  return Rc;
}
int ramc_initiator_check(ramc_ctx_t *C, ramc_initiator_t I, int *Relation) {
  RAMC_CTX_OR_FAIL(C);
  int R = RAMC_SUCCESS;
  int Rc = X->check(I, R, "ramc_initiator_check");
  if (Relation)
    *Relation = R;
  return Rc;
}
int ramc_initiator_wait_status(ramc_ctx_t *C, ramc_initiator_t I, int64_t Ms) {
  RAMC_CTX_OR_FAIL(C);
  return X->waitStatus(I, Ms, "ramc_initiator_wait_status");
}
int ramc_initiator_put(ramc_ctx_t *C, ramc_initiator_t I, const void *Src,
                       size_t Len, size_t Off, unsigned Flags) {
  RAMC_CTX_OR_FAIL(C);
  return X->put(I, Src, Len, Off, Flags & RAMC_NONBLOCKING,
                "ramc_initiator_put");
}
int ramc_initiator_get(ramc_ctx_t *C, ramc_initiator_t I, void *Dst, size_t Len,
                       size_t Off, unsigned Flags) {
  RAMC_CTX_OR_FAIL(C);
  return X->get(I, Dst, Len, Off, Flags & RAMC_NONBLOCKING,
                "ramc_initiator_get");
}
int ramc_initiator_atomic_inc(ramc_ctx_t *C, ramc_initiator_t I, size_t Off) {
  RAMC_CTX_OR_FAIL(C);
  return X->atomicInc(I, Off, "ramc_initiator_atomic_inc");
}
int ramc_ctx_wait_puts(ramc_ctx_t *C, int64_t Ms) {
  RAMC_CTX_OR_FAIL(C);
  return X->waitPuts(Ms, "ramc_ctx_wait_puts");
}
int ramc_ctx_wait_gets(ramc_ctx_t *C, int64_t Ms) {
  RAMC_CTX_OR_FAIL(C);
  return X->waitGets(Ms, "ramc_ctx_wait_gets");
}

long ramc_debug_live_objects(void) { return ramc::liveTransportObjects(); }

} // extern "C"
