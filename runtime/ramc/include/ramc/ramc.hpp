//===- ramc/ramc.hpp - RAMC context API, C++ layer --------------*- C++ -*-===//
//
// RAII wrappers over the C context API (ramc/ramc_ctx.h): no global state,
// buffers as spans, a deadline on every wait, errors as ramc::Error
// exceptions whose message names the call, the peer and the parameter.
// Tests (test()) return bool; waits throw ramc::Timeout when the deadline
// passes.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_RAMC_HPP
#define RAMC_RAMC_HPP

#include "ramc/ramc_ctx.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace ramc {

/// A contiguous range of bytes (C++17 has no std::span).
template <typename T> class Span {
public:
  Span() = default;
  Span(T *Data, size_t Count) : Ptr(Data), Count(Count) {}
  template <size_t N> Span(T (&Arr)[N]) : Ptr(Arr), Count(N) {}
  template <typename C, typename = decltype(std::declval<C &>().data() +
                                            std::declval<C &>().size())>
  Span(C &Cont) : Ptr(Cont.data()), Count(Cont.size()) {}
  T *data() const { return Ptr; }
  size_t size() const { return Count; }
  size_t size_bytes() const { return Count * sizeof(T); }

private:
  T *Ptr = nullptr;
  size_t Count = 0;
};

class Error : public std::runtime_error {
public:
  Error(int Code, const std::string &Msg)
      : std::runtime_error(Msg), Code(Code) {}
  int code() const { return Code; }

private:
  int Code;
};

class Timeout : public Error {
public:
  explicit Timeout(const std::string &Msg) : Error(RAMC_TIMEOUT, Msg) {}
};

using Millis = std::chrono::milliseconds;

namespace detail {
inline void check(ramc_ctx_t *C, int Rc) {
  if (Rc == RAMC_SUCCESS)
    return;
  if (Rc == RAMC_TIMEOUT)
    throw Timeout(ramc_ctx_error(C));
  throw Error(Rc, ramc_ctx_error(C));
}
/// RAMC_SUCCESS -> true, RAMC_FAILURE -> false, otherwise throws.
inline bool test(ramc_ctx_t *C, int Rc) {
  if (Rc == RAMC_FAILURE)
    return false;
  check(C, Rc);
  return true;
}
} // namespace detail

enum class Notify {
  Auto = RAMC_NOTIFY_AUTO,
  MrCounter = RAMC_NOTIFY_MR_COUNTER,
  CqData = RAMC_NOTIFY_CQ_DATA
};
enum class Bootstrap {
  Auto = RAMC_BOOTSTRAP_AUTO,
  Pmix = RAMC_BOOTSTRAP_PMIX,
  Mpi = RAMC_BOOTSTRAP_MPI,
  Single = RAMC_BOOTSTRAP_SINGLE
};

struct Options {
  std::string Provider; // empty: environment or best available
  Notify NotifyMode = Notify::Auto;
  Bootstrap BootstrapKind = Bootstrap::Auto;
  Millis DefaultTimeout{-1}; // negative: environment or 120 s
  int DeliveryComplete = -1; // -1: environment
};

class Context;

/// A window this process exposes. Destroyed with the object.
class Target {
public:
  Target() = default;
  Target(Target &&O) noexcept { *this = std::move(O); }
  Target &operator=(Target &&O) noexcept {
    reset();
    Ctx = std::exchange(O.Ctx, nullptr);
    H = O.H;
    return *this;
  }
  ~Target() { reset(); }

  void post() { detail::check(Ctx, ramc_target_post(Ctx, H)); }
  void unpost() { detail::check(Ctx, ramc_target_unpost(Ctx, H)); }
  void setStatus(uint64_t V) {
    detail::check(Ctx, ramc_target_set_status(Ctx, H, V));
  }
  void addStatus(uint64_t D) {
    detail::check(Ctx, ramc_target_add_status(Ctx, H, D));
  }
  uint64_t status() const {
    uint64_t V = 0;
    detail::check(Ctx, ramc_target_status(Ctx, H, &V));
    return V;
  }
  /// Consumes N arrivals if they are there.
  bool test(uint64_t N) {
    return detail::test(Ctx, ramc_target_test(Ctx, H, N));
  }
  /// Waits for N more arrivals, then consumes them.
  void wait(uint64_t N, Millis Deadline) {
    detail::check(Ctx, ramc_target_wait(Ctx, H, N, Deadline.count()));
  }
  uint64_t arrived() const {
    uint64_t A = 0, C = 0;
    detail::check(Ctx, ramc_target_counts(Ctx, H, &A, &C));
    return A;
  }
  /// Destroys the window now; later use throws.
  void destroy() {
    int Rc = ramc_target_destroy(Ctx, H);
    ramc_ctx_t *C = Ctx;
    Ctx = nullptr;
    detail::check(C, Rc);
  }
  ramc_target_t handle() const { return H; }

private:
  friend class Context;
  Target(ramc_ctx_t *C, ramc_target_t H) : Ctx(C), H(H) {}
  void reset() {
    if (Ctx)
      ramc_target_destroy(Ctx, H);
    Ctx = nullptr;
  }
  ramc_ctx_t *Ctx = nullptr;
  ramc_target_t H = 0;
};

/// An attachment to a window of another process (or this one).
class Initiator {
public:
  Initiator() = default;
  Initiator(Initiator &&O) noexcept { *this = std::move(O); }
  Initiator &operator=(Initiator &&O) noexcept {
    reset();
    Ctx = std::exchange(O.Ctx, nullptr);
    H = O.H;
    return *this;
  }
  ~Initiator() { reset(); }

  int peer() const {
    int P = -1;
    detail::check(Ctx, ramc_initiator_info(Ctx, H, &P, nullptr, nullptr));
    return P;
  }
  size_t windowSize() const {
    size_t L = 0;
    detail::check(Ctx, ramc_initiator_info(Ctx, H, nullptr, nullptr, &L));
    return L;
  }
  uint64_t expected() const {
    uint64_t V = 0;
    detail::check(Ctx, ramc_initiator_expected(Ctx, H, &V));
    return V;
  }
  void setExpected(uint64_t V) {
    detail::check(Ctx, ramc_initiator_set_expected(Ctx, H, V));
  }
  void addExpected(uint64_t D) {
    detail::check(Ctx, ramc_initiator_add_expected(Ctx, H, D));
  }
  uint64_t readStatus() {
    uint64_t V = 0;
    detail::check(Ctx, ramc_initiator_read_status(Ctx, H, &V));
    return V;
  }
  /// RAMC_SUCCESS (status as expected), RAMC_TARGET_BEHIND or _AHEAD;
  /// throws on errors.
  int check() {
    int Relation = RAMC_SUCCESS;
    detail::check(Ctx, ramc_initiator_check(Ctx, H, &Relation));
    return Relation;
  }
  void waitStatus(Millis Deadline) {
    detail::check(Ctx, ramc_initiator_wait_status(Ctx, H, Deadline.count()));
  }
  template <typename T>
  void put(Span<const T> Src, size_t Offset, bool NonBlocking = false) {
    detail::check(Ctx, ramc_initiator_put(Ctx, H, Src.data(), Src.size_bytes(),
                                          Offset,
                                          NonBlocking ? RAMC_NONBLOCKING : 0));
  }
  template <typename T>
  void get(Span<T> Dst, size_t Offset, bool NonBlocking = false) {
    static_assert(!std::is_const<T>::value, "get needs a writable span");
    detail::check(Ctx, ramc_initiator_get(Ctx, H, Dst.data(), Dst.size_bytes(),
                                          Offset,
                                          NonBlocking ? RAMC_NONBLOCKING : 0));
  }
  void atomicInc(size_t Offset) {
    detail::check(Ctx, ramc_initiator_atomic_inc(Ctx, H, Offset));
  }
  /// Detaches now; later use throws.
  void detach() {
    int Rc = ramc_initiator_detach(Ctx, H);
    ramc_ctx_t *C = Ctx;
    Ctx = nullptr;
    detail::check(C, Rc);
  }
  ramc_initiator_t handle() const { return H; }

private:
  friend class Context;
  Initiator(ramc_ctx_t *C, ramc_initiator_t H) : Ctx(C), H(H) {}
  void reset() {
    if (Ctx)
      ramc_initiator_detach(Ctx, H);
    Ctx = nullptr;
  }
  ramc_ctx_t *Ctx = nullptr;
  ramc_initiator_t H = 0;
};

/// One RAMC endpoint. Creating it is collective over the job.
/// Targets and Initiators must not outlive their Context.
class Context {
public:
  explicit Context(const Options &O = Options()) {
    ramc_ctx_options_t C;
    ramc_ctx_options_init(&C);
    C.provider = O.Provider.empty() ? nullptr : O.Provider.c_str();
    C.notify = static_cast<int>(O.NotifyMode);
    C.bootstrap = static_cast<int>(O.BootstrapKind);
    C.default_timeout_ms = O.DefaultTimeout.count();
    C.delivery_complete = O.DeliveryComplete;
    char Buf[1024] = "";
    int Rc = ramc_ctx_create(&C, &Ctx, Buf, sizeof(Buf));
    if (Rc)
      throw Error(Rc, Buf);
  }
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;
  ~Context() { ramc_ctx_destroy(Ctx); }

  int rank() const { return ramc_ctx_rank(Ctx); }
  int size() const { return ramc_ctx_size(Ctx); }
  std::string provider() const { return ramc_ctx_provider(Ctx); }
  Notify notify() const {
    return static_cast<Notify>(ramc_ctx_notify_mode(Ctx));
  }
  void barrier() { detail::check(Ctx, ramc_ctx_barrier(Ctx)); }
  void progress() { detail::check(Ctx, ramc_ctx_progress(Ctx)); }

  template <typename T>
  Target expose(Span<T> Window, uint64_t Tag,
                uint64_t InitStatus = RAMC_TARGET_STATUS_INITIALIZE) {
    ramc_target_t H = 0;
    detail::check(Ctx,
                  ramc_target_create(Ctx, Window.data(), Window.size_bytes(),
                                     Tag, InitStatus, &H));
    return Target(Ctx, H);
  }
  void activateBoard() { detail::check(Ctx, ramc_bb_activate(Ctx)); }
  void deactivateBoard() { detail::check(Ctx, ramc_bb_deactivate(Ctx)); }
  void waitAttaches(uint64_t N, Millis Deadline) {
    detail::check(Ctx, ramc_bb_wait_attaches(Ctx, N, Deadline.count()));
  }
  bool testAttaches(uint64_t N) {
    return detail::test(Ctx, ramc_bb_test_attaches(Ctx, N));
  }
  /// Attaches to the window Peer posts under Tag, waiting for the posting.
  Initiator attach(int Peer, uint64_t Tag, Millis Deadline,
                   uint64_t InitStatus = RAMC_TARGET_STATUS_INITIALIZE) {
    ramc_initiator_t H = 0;
    detail::check(Ctx, ramc_initiator_attach(Ctx, Peer, Tag, InitStatus,
                                             Deadline.count(), &H));
    return Initiator(Ctx, H);
  }
  void waitPuts(Millis Deadline) {
    detail::check(Ctx, ramc_ctx_wait_puts(Ctx, Deadline.count()));
  }
  void waitGets(Millis Deadline) {
    detail::check(Ctx, ramc_ctx_wait_gets(Ctx, Deadline.count()));
  }
  ramc_ctx_t *raw() { return Ctx; }

private:
  ramc_ctx_t *Ctx = nullptr;
};

} // namespace ramc

#endif
