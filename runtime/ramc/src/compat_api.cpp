//===- compat_api.cpp - the RAMC 0.5-compatible API over a global context -===//
//
// One default context per process (per simulated rank in libramc-sim,
// compat_state.h). The structs programs declare carry a handle and a magic
// number, so double destroys, use of structs that were never filled in, and
// use before ramc_init are reported, not crashes.
//
//===----------------------------------------------------------------------===//
#include "compat_state.h"
#include "ctx_handle.h"

#include "ramc_api.h"

#include <string>

using ramc::CompatState;
using ramc::compatState;

namespace {

constexpr uint64_t kTargetMagic = 0x52414d4354475431ull; // live window
constexpr uint64_t kTargetDead = 0x52414d4354475430ull;  // destroyed
constexpr uint64_t kInitMagic = 0x52414d43494e4931ull;   // attached
constexpr uint64_t kInitDead = 0x52414d43494e4930ull;    // detached

int noContext(CompatState &S, const char *Call) {
  S.Err = std::string(Call) + ": called before ramc_init (or after "
                              "ramc_finalize)";
  return RAMC_ERROR;
}

ramc::Context *ctx(CompatState &S) { return S.Ctx ? &S.Ctx->Impl : nullptr; }

#define COMPAT_CTX(Call)                                                       \
  CompatState &S = compatState();                                              \
  ramc::Context *X = ctx(S);                                                   \
  if (!X)                                                                      \
    return noContext(S, Call);

int checkTarget(ramc::Context *X, const ramc_target_win_info_s *W,
                const char *Call) {
  if (!W)
    return X->fail(RAMC_ERROR, "%s: window info is NULL", Call);
  if (W->priv_magic == kTargetDead)
    return X->fail(RAMC_ERROR,
                   "%s: the window with tag %llu was destroyed "
                   "already",
                   Call, static_cast<unsigned long long>(W->tag));
  if (W->priv_magic != kTargetMagic)
    return X->fail(RAMC_ERROR,
                   "%s: the window info was not filled in by "
                   "ramc_tgt_create_window",
                   Call);
  return RAMC_SUCCESS;
}

int checkInit(ramc::Context *X, const ramc_init_win_info_s *W,
              const char *Call) {
  if (!W)
    return X->fail(RAMC_ERROR, "%s: window info is NULL", Call);
  if (W->priv_magic == kInitDead)
    return X->fail(RAMC_ERROR,
                   "%s: the channel to rank %d (tag %llu) was "
                   "detached",
                   Call, W->rank, static_cast<unsigned long long>(W->tag));
  if (W->priv_magic != kInitMagic)
    return X->fail(RAMC_ERROR,
                   "%s: the window info was not filled in by "
                   "ramc_init_get_bb_posting",
                   Call);
  return RAMC_SUCCESS;
}

} // namespace

extern "C" {

int ramc_init(void) {
  CompatState &S = compatState();
  if (S.Ctx) {
    S.Ctx->Impl.fail(RAMC_ERROR, "ramc_init: already initialized");
    return RAMC_ERROR;
  }
  char Buf[1024];
  int Rc = ramc_ctx_create(nullptr, &S.Ctx, Buf, sizeof(Buf));
  if (Rc) {
    S.Err = Buf;
    S.Ctx = nullptr;
  }
  S.LastCheckedTag.clear();
  return Rc;
}

int ramc_finalize(void) {
  COMPAT_CTX("ramc_finalize");
  int Rc = X->waitPuts(RAMC_TIMEOUT_DEFAULT, "ramc_finalize");
  int B = X->barrier(); // peers may still read our board and status words
  if (Rc)
    S.Err = X->error();
  else if (B)
    S.Err = X->error();
  ramc_ctx_destroy(S.Ctx);
  S.Ctx = nullptr;
  return Rc ? Rc : B;
}

int ramc_get_rank(void) {
  CompatState &S = compatState();
  return S.Ctx ? S.Ctx->Impl.rank() : -1;
}
int ramc_get_numranks(void) {
  CompatState &S = compatState();
  return S.Ctx ? S.Ctx->Impl.size() : 0;
}

int ramc_barrier_linear(void) {
  COMPAT_CTX("ramc_barrier_linear");
  return X->barrier();
}
int ramc_barrier_binary(void) {
  COMPAT_CTX("ramc_barrier_binary");
  return X->barrier();
}

int ramc_tgt_create_window(void *Buf, size_t Len, uint64_t Tag, uint64_t Init,
                           ramc_target_win_info_s *Out) {
  COMPAT_CTX("ramc_tgt_create_window");
  if (!Out)
    return X->fail(RAMC_ERROR,
                   "ramc_tgt_create_window: out is NULL (parameter out)");
  ramc_target_t T;
  if (int Rc =
          X->targetCreate(Buf, Len, Tag, Init, T, "ramc_tgt_create_window"))
    return Rc;
  Out->rank = X->rank();
  Out->tag = Tag;
  Out->buffer = Buf;
  Out->status_val = Init;
  Out->len = Len;
  Out->priv_handle = T;
  Out->priv_magic = kTargetMagic;
  return RAMC_SUCCESS;
}

int ramc_tgt_destroy_window(ramc_target_win_info_s *W) {
  const char *Call = "ramc_tgt_destroy_window";
  COMPAT_CTX(Call);
  if (int Rc = checkTarget(X, W, Call))
    return Rc;
  int Rc = X->targetDestroy(W->priv_handle, Call);
  W->priv_magic = kTargetDead;
  W->status_val = RAMC_TARGET_STATUS_DESTROYED;
  return Rc;
}

int ramc_tgt_post_window(ramc_target_win_info_s *W) {
  const char *Call = "ramc_tgt_post_window";
  COMPAT_CTX(Call);
  if (int Rc = checkTarget(X, W, Call))
    return Rc;
  return X->targetPost(W->priv_handle, Call);
}

int ramc_tgt_activate_bb(void) {
  COMPAT_CTX("ramc_tgt_activate_bb");
  return X->bbActivate(true, "ramc_tgt_activate_bb");
}
int ramc_tgt_deactivate_bb(void) {
  COMPAT_CTX("ramc_tgt_deactivate_bb");
  return X->bbActivate(false, "ramc_tgt_deactivate_bb");
}
int ramc_tgt_await_bb_reads(uint64_t N) {
  COMPAT_CTX("ramc_tgt_await_bb_reads");
  return X->bbWaitAttaches(N, RAMC_TIMEOUT_DEFAULT, "ramc_tgt_await_bb_reads");
}
int ramc_tgt_test_bb_reads(uint64_t N) {
  COMPAT_CTX("ramc_tgt_test_bb_reads");
  return X->bbTestAttaches(N, "ramc_tgt_test_bb_reads");
}

int ramc_tgt_await_win_ops(ramc_target_win_info_s *W, uint64_t N) {
  const char *Call = "ramc_tgt_await_win_ops";
  COMPAT_CTX(Call);
  if (int Rc = checkTarget(X, W, Call))
    return Rc;
  return X->targetWait(W->priv_handle, N, RAMC_TIMEOUT_DEFAULT, Call);
}
int ramc_tgt_test_win_ops(ramc_target_win_info_s *W, uint64_t N) {
  const char *Call = "ramc_tgt_test_win_ops";
  COMPAT_CTX(Call);
  if (int Rc = checkTarget(X, W, Call))
    return Rc;
  return X->targetTest(W->priv_handle, N, Call);
}

static int setStatus(ramc_target_win_info_s *W, uint64_t V, bool Add,
                     const char *Call) {
  COMPAT_CTX(Call);
  if (int Rc = checkTarget(X, W, Call))
    return Rc;
  if (int Rc = X->targetSetStatus(W->priv_handle, V, Add, Call))
    return Rc;
  return X->targetStatus(W->priv_handle, W->status_val, Call);
}
int ramc_tgt_increment_win_status(ramc_target_win_info_s *W, uint64_t V) {
  return setStatus(W, V, true, "ramc_tgt_increment_win_status");
}
int ramc_tgt_set_win_status(ramc_target_win_info_s *W, uint64_t V) {
  return setStatus(W, V, false, "ramc_tgt_set_win_status");
}
uint64_t ramc_tgt_get_win_status_raw(ramc_target_win_info_s *W) {
  const char *Call = "ramc_tgt_get_win_status_raw";
  CompatState &S = compatState();
  ramc::Context *X = ctx(S);
  if (!X) {
    noContext(S, Call);
    return RAMC_TARGET_STATUS_DESTROYED;
  }
  uint64_t V = RAMC_TARGET_STATUS_DESTROYED;
  if (checkTarget(X, W, Call) || X->targetStatus(W->priv_handle, V, Call))
    return RAMC_TARGET_STATUS_DESTROYED;
  return V;
}

int ramc_init_check_bb_status(int Rank, uint64_t Tag) {
  const char *Call = "ramc_init_check_bb_status";
  COMPAT_CTX(Call);
  int Rc = ramc_bb_check(S.Ctx, Rank, Tag);
  if (Rc == RAMC_SUCCESS)
    S.LastCheckedTag[Rank] = Tag;
  return Rc;
}

int ramc_init_get_bb_status(int Rank, uint8_t *Status, uint64_t *Tag) {
  COMPAT_CTX("ramc_init_get_bb_status");
  return ramc_bb_read(S.Ctx, Rank, Status, Tag);
}

int ramc_init_get_bb_posting(int Rank, uint64_t Init,
                             ramc_init_win_info_s *Out) {
  const char *Call = "ramc_init_get_bb_posting";
  COMPAT_CTX(Call);
  if (!Out)
    return X->fail(RAMC_ERROR, "%s: out is NULL (parameter out)", Call);
  auto It = S.LastCheckedTag.find(Rank);
  bool AnyTag = It == S.LastCheckedTag.end();
  ramc_initiator_t I;
  if (int Rc =
          X->attach(Rank, AnyTag ? 0 : It->second, AnyTag, Init, 0, I, Call))
    return Rc;
  if (!AnyTag)
    S.LastCheckedTag.erase(It);
  int P;
  uint64_t Tag;
  size_t Len;
  X->info(I, P, Tag, Len, Call);
  Out->rank = Rank;
  Out->status_val = Init;
  Out->tag = Tag;
  Out->len = Len;
  Out->priv_handle = I;
  Out->priv_magic = kInitMagic;
  return RAMC_SUCCESS;
}

int ramc_init_detach(ramc_init_win_info_s *W) {
  const char *Call = "ramc_init_detach";
  COMPAT_CTX(Call);
  if (int Rc = checkInit(X, W, Call))
    return Rc;
  int Rc = X->detach(W->priv_handle, Call);
  W->priv_magic = kInitDead;
  return Rc;
}

int ramc_init_increment_status(ramc_init_win_info_s *W, uint64_t V) {
  const char *Call = "ramc_init_increment_status";
  COMPAT_CTX(Call);
  if (int Rc = checkInit(X, W, Call))
    return Rc;
  W->status_val += V;
  return RAMC_SUCCESS;
}
int ramc_init_set_status(ramc_init_win_info_s *W, uint64_t V) {
  const char *Call = "ramc_init_set_status";
  COMPAT_CTX(Call);
  if (int Rc = checkInit(X, W, Call))
    return Rc;
  W->status_val = V;
  return RAMC_SUCCESS;
}

int ramc_init_check_win_status(ramc_init_win_info_s *W) {
  const char *Call = "ramc_init_check_win_status";
  COMPAT_CTX(Call);
  if (int Rc = checkInit(X, W, Call))
    return Rc;
  X->setExpected(W->priv_handle, W->status_val, false, Call);
  int Relation = RAMC_SUCCESS;
  // RAMC_ERROR has the value of RAMC_TARGET_BEHIND, so a failed read is
  // returned as RAMC_TIMEOUT (the value of RAMC_TARGET_AHEAD): a program
  // polling while the result is RAMC_TARGET_BEHIND stops instead of spinning
  // on an error. ramc_last_error() says what happened.
  if (X->check(W->priv_handle, Relation, Call))
    return RAMC_TIMEOUT;
  return Relation;
}

int ramc_init_get_win_status(ramc_init_win_info_s *W, uint64_t *Value,
                             uint64_t *State) {
  const char *Call = "ramc_init_get_win_status";
  COMPAT_CTX(Call);
  if (int Rc = checkInit(X, W, Call))
    return Rc;
  uint64_t V = 0;
  int Rc = X->readStatus(W->priv_handle, V, Call);
  if (Value)
    *Value = V;
  if (State)
    *State = V & 1;
  return Rc;
}

static int dataOp(void *Local, size_t Len, ramc_init_win_info_s *W, size_t Off,
                  bool IsPut, bool NB, const char *Call) {
  COMPAT_CTX(Call);
  if (int Rc = checkInit(X, W, Call))
    return Rc;
  return IsPut ? X->put(W->priv_handle, Local, Len, Off, NB, Call)
               : X->get(W->priv_handle, Local, Len, Off, NB, Call);
}
int ramc_put(void *L, size_t N, ramc_init_win_info_s *W, size_t Off) {
  return dataOp(L, N, W, Off, true, false, "ramc_put");
}
int ramc_put_nb(void *L, size_t N, ramc_init_win_info_s *W, size_t Off) {
  return dataOp(L, N, W, Off, true, true, "ramc_put_nb");
}
int ramc_get(void *L, size_t N, ramc_init_win_info_s *W, size_t Off) {
  return dataOp(L, N, W, Off, false, false, "ramc_get");
}
int ramc_get_nb(void *L, size_t N, ramc_init_win_info_s *W, size_t Off) {
  return dataOp(L, N, W, Off, false, true, "ramc_get_nb");
}
int ramc_await_all_puts(void) {
  COMPAT_CTX("ramc_await_all_puts");
  return X->waitPuts(RAMC_TIMEOUT_DEFAULT, "ramc_await_all_puts");
}
int ramc_await_all_gets(void) {
  COMPAT_CTX("ramc_await_all_gets");
  return X->waitGets(RAMC_TIMEOUT_DEFAULT, "ramc_await_all_gets");
}
int ramc_atomic_inc(ramc_init_win_info_s *W, size_t Off) {
  const char *Call = "ramc_atomic_inc";
  COMPAT_CTX(Call);
  if (int Rc = checkInit(X, W, Call))
    return Rc;
  return X->atomicInc(W->priv_handle, Off, Call);
}

const char *ramc_last_error(void) {
  CompatState &S = compatState();
  if (S.Ctx && *S.Ctx->Impl.error())
    return S.Ctx->Impl.error();
  return S.Err.c_str();
}

const char *ramc_describe_transport(void) {
  CompatState &S = compatState();
  return S.Ctx ? ramc_ctx_describe(S.Ctx) : "";
}

int ramc_set_timeout_ms(int64_t Ms) {
  COMPAT_CTX("ramc_set_timeout_ms");
  X->setDefaultTimeout(Ms < 0 ? -1 : Ms);
  return RAMC_SUCCESS;
}

} // extern "C"
