//===- SingleProcessTest.cpp - the library end to end in one process ------===//
//
// With the single-process bootstrap a process can attach to its own
// windows, so the whole protocol runs here without a launcher. Run on the
// providers that exist on every Linux machine; both notification modes.
//
//===----------------------------------------------------------------------===//
#include "ramc/ramc.hpp"
#include "ramc_api.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

struct Transport {
  const char *Provider;
  ramc::Notify Mode;
};

class SingleProcess : public ::testing::TestWithParam<Transport> {
protected:
  void SetUp() override {
    setenv("FI_SOCKETS_IFACE", "lo", 0);
    setenv("FI_TCP_IFACE", "lo", 0);
  }
  ramc::Options options() const {
    ramc::Options O;
    O.Provider = GetParam().Provider;
    O.NotifyMode = GetParam().Mode;
    O.BootstrapKind = ramc::Bootstrap::Single;
    O.DefaultTimeout = ramc::Millis(30000);
    return O;
  }
};

using ramc::Millis;

TEST_P(SingleProcess, PutsAreCountedExactlyAndDataArrives) {
  ramc::Context C(options());
  ASSERT_EQ(C.rank(), 0);
  ASSERT_EQ(C.size(), 1);
  ASSERT_EQ(C.notify(), GetParam().Mode);
  std::vector<uint8_t> Win(1 << 20, 0);
  ramc::Target T = C.expose(ramc::Span<uint8_t>(Win), 42, 3);
  T.post();
  C.activateBoard();
  ramc::Initiator I = C.attach(0, 42, Millis(20000), 3);
  C.waitAttaches(1, Millis(20000));
  EXPECT_FALSE(C.testAttaches(1));
  EXPECT_EQ(I.windowSize(), Win.size());
  EXPECT_EQ(I.check(), RAMC_SUCCESS);

  std::vector<uint8_t> Src(Win.size());
  for (size_t K = 0; K < Src.size(); ++K)
    Src[K] = static_cast<uint8_t>(K * 7 + 1);
  // Small (injected) and large puts, blocking and not.
  const size_t Sizes[] = {1, 8, 64, 4096, 65536, 1 << 20};
  size_t Off = 0;
  for (size_t S : Sizes) {
    size_t At = (Off * 4099) % (Win.size() - S + 1);
    I.put(ramc::Span<const uint8_t>(Src.data() + At, S), At, S > 4096);
    ++Off;
  }
  C.waitPuts(Millis(20000));
  T.wait(6, Millis(20000));
  EXPECT_FALSE(T.test(1)); // exactly six
  EXPECT_EQ(T.arrived(), 6u);
  for (size_t S : {size_t(1) << 20})
    EXPECT_EQ(std::memcmp(Win.data(), Src.data(), S), 0);

  // Gets see what is in the window.
  std::vector<uint8_t> Back(4096);
  I.get(ramc::Span<uint8_t>(Back), 1000);
  EXPECT_EQ(std::memcmp(Back.data(), Win.data() + 1000, Back.size()), 0);
  I.get(ramc::Span<uint8_t>(Back), 0, /*NonBlocking=*/true);
  C.waitGets(Millis(20000));
  EXPECT_EQ(std::memcmp(Back.data(), Win.data(), Back.size()), 0);
  EXPECT_FALSE(T.test(1)); // gets are not counted
}

TEST_P(SingleProcess, StatusEpochs) {
  ramc::Context C(options());
  uint64_t Word[4] = {};
  ramc::Target T = C.expose(ramc::Span<uint64_t>(Word), 7, 3);
  T.post();
  C.activateBoard();
  ramc::Initiator I = C.attach(0, 7, Millis(20000), 5);
  EXPECT_EQ(I.readStatus(), 3u);
  EXPECT_EQ(I.check(), RAMC_TARGET_BEHIND);
  T.addStatus(2);
  EXPECT_EQ(I.check(), RAMC_SUCCESS);
  T.addStatus(1);
  EXPECT_EQ(I.check(), RAMC_TARGET_AHEAD);
  I.addExpected(1);
  I.waitStatus(Millis(20000));
  T.setStatus(100);
  EXPECT_EQ(T.status(), 100u);
  EXPECT_THROW(I.waitStatus(Millis(50)), ramc::Timeout);
}

TEST_P(SingleProcess, AtomicIncrementAddsOne) {
  ramc::Context C(options());
  uint64_t Word[4] = {};
  ramc::Target T = C.expose(ramc::Span<uint64_t>(Word), 8, 3);
  T.post();
  C.activateBoard();
  ramc::Initiator I = C.attach(0, 8, Millis(20000));
  for (int K = 0; K < 10; ++K)
    I.atomicInc(16);
  EXPECT_EQ(__atomic_load_n(&Word[2], __ATOMIC_ACQUIRE), 10u);
  // Atomic increments count as window operations in both modes.
  T.wait(10, Millis(20000));
  EXPECT_FALSE(T.test(1));
  EXPECT_THROW(I.atomicInc(12), ramc::Error); // misaligned
  EXPECT_THROW(I.atomicInc(32), ramc::Error); // past the end
}

TEST_P(SingleProcess, MisuseIsReportedNotFatal) {
  ramc::Context C(options());
  uint8_t Win[64] = {};
  ramc::Target T = C.expose(ramc::Span<uint8_t>(Win), 9, 3);
  T.post();
  C.activateBoard();
  ramc::Initiator I = C.attach(0, 9, Millis(20000));
  uint8_t Src[128] = {};
  try {
    I.put(ramc::Span<const uint8_t>(Src, 65), 0);
    FAIL() << "put past the end succeeded";
  } catch (const ramc::Error &E) {
    EXPECT_EQ(E.code(), RAMC_ERROR);
    EXPECT_NE(std::string(E.what()).find("past the end"), std::string::npos)
        << E.what();
    EXPECT_NE(std::string(E.what()).find("rank 0"), std::string::npos);
  }
  EXPECT_THROW(I.put(ramc::Span<const uint8_t>(Src, 1), 64), ramc::Error);
  I.put(ramc::Span<const uint8_t>(Src, 0), 64); // zero length: a no-op
  // Wrong tag: nothing posted under it.
  try {
    C.attach(0, 10, Millis(0));
    FAIL() << "attach to an unposted tag succeeded";
  } catch (const ramc::Error &E) {
    EXPECT_EQ(E.code(), RAMC_FAILURE);
    EXPECT_NE(std::string(E.what()).find("tag 10"), std::string::npos);
  }
  EXPECT_THROW(C.attach(0, 10, Millis(30)), ramc::Timeout);
  // Detached initiators and destroyed windows.
  ramc_initiator_t Stale = I.handle();
  I.detach();
  EXPECT_EQ(ramc_initiator_put(C.raw(), Stale, Src, 1, 0, 0), RAMC_ERROR);
  EXPECT_NE(std::string(ramc_ctx_error(C.raw())).find("not attached"),
            std::string::npos);
  ramc_target_t Gone = T.handle();
  T.destroy();
  EXPECT_EQ(ramc_target_destroy(C.raw(), Gone), RAMC_ERROR); // double
  EXPECT_EQ(ramc_target_wait(C.raw(), Gone, 1, 10), RAMC_ERROR);
  EXPECT_EQ(ramc_target_destroy(C.raw(), 0), RAMC_ERROR);
  EXPECT_EQ(ramc_target_create(C.raw(), nullptr, 8, 1, 3, &Gone), RAMC_ERROR);
  EXPECT_EQ(ramc_target_create(C.raw(), Win, 0, 1, 3, &Gone), RAMC_ERROR);
  EXPECT_EQ(ramc_bb_check(C.raw(), 1, 9), RAMC_ERROR); // no rank 1
}

TEST_P(SingleProcess, ImpossibleWindowLengthsAreRejected) {
  ramc::Context C(options());
  alignas(64) static uint8_t Win[4096];
  ramc_target_t T = 0;
  // Wrapping around the end of the address space, and larger than any
  // object can be.
  for (size_t Len :
       {SIZE_MAX, SIZE_MAX - 4095, static_cast<size_t>(PTRDIFF_MAX) + 1}) {
    EXPECT_EQ(ramc_target_create(C.raw(), Win, Len, 1, 3, &T), RAMC_ERROR)
        << "len " << Len;
    std::string E = ramc_ctx_error(C.raw());
    EXPECT_NE(E.find("ramc_target_create on rank 0"), std::string::npos) << E;
    EXPECT_NE(E.find("(parameter len"), std::string::npos) << E;
  }
  // Nothing was registered or used up: the buffer's real size still works.
  ASSERT_EQ(ramc_target_create(C.raw(), Win, sizeof(Win), 1, 3, &T),
            RAMC_SUCCESS)
      << ramc_ctx_error(C.raw());
  EXPECT_EQ(ramc_target_destroy(C.raw(), T), RAMC_SUCCESS);
}

TEST_P(SingleProcess, BoardHoldsSeveralPostings) {
  ramc::Context C(options());
  std::vector<std::vector<uint8_t>> Bufs(20, std::vector<uint8_t>(32));
  std::vector<ramc::Target> Ts;
  for (int K = 0; K < 16; ++K) {
    Ts.push_back(C.expose(ramc::Span<uint8_t>(Bufs[K]), 1000 + K, 3));
    Ts.back().post();
  }
  ramc::Target Extra = C.expose(ramc::Span<uint8_t>(Bufs[16]), 2000, 3);
  EXPECT_THROW(Extra.post(), ramc::Error); // board full
  C.activateBoard();
  std::vector<ramc::Initiator> Is;
  for (int K = 15; K >= 0; --K)
    Is.push_back(C.attach(0, 1000 + K, Millis(20000)));
  C.waitAttaches(16, Millis(20000));
  uint8_t V = 0x5a;
  Is[0].put(ramc::Span<const uint8_t>(&V, 1), 3); // tag 1015
  Ts[15].wait(1, Millis(20000));
  EXPECT_EQ(Bufs[15][3], 0x5a);
  EXPECT_FALSE(Ts[0].test(1));
  Ts[3].unpost();
  EXPECT_THROW(C.attach(0, 1003, Millis(0)), ramc::Error);
  C.deactivateBoard();
  EXPECT_THROW(C.attach(0, 1004, Millis(0)), ramc::Error);
}

// No global state: two contexts in one process keep their windows, boards,
// counters and errors apart.
TEST_P(SingleProcess, TwoContextsDoNotInterfere) {
  ramc::Context A(options()), B(options());
  uint64_t WA[2] = {}, WB[2] = {};
  ramc::Target TA = A.expose(ramc::Span<uint64_t>(WA), 5, 3);
  ramc::Target TB = B.expose(ramc::Span<uint64_t>(WB), 5, 7);
  TA.post();
  TB.post();
  A.activateBoard();
  ramc::Initiator IA = A.attach(0, 5, Millis(20000), 3);
  EXPECT_THROW(B.attach(0, 5, Millis(0)), ramc::Error); // B's board inactive
  B.activateBoard();
  ramc::Initiator IB = B.attach(0, 5, Millis(20000), 7);
  EXPECT_EQ(IA.readStatus(), 3u);
  EXPECT_EQ(IB.readStatus(), 7u);
  uint64_t X = 11, Y = 22;
  IA.put(ramc::Span<const uint64_t>(&X, 1), 0);
  IB.put(ramc::Span<const uint64_t>(&Y, 1), 8);
  TA.wait(1, Millis(20000));
  TB.wait(1, Millis(20000));
  EXPECT_FALSE(TA.test(1));
  EXPECT_FALSE(TB.test(1));
  EXPECT_EQ(WA[0], 11u);
  EXPECT_EQ(WA[1], 0u);
  EXPECT_EQ(WB[0], 0u);
  EXPECT_EQ(WB[1], 22u);
}

TEST(SingleProcessCompat, UseBeforeInitIsAnError) {
  EXPECT_EQ(ramc_get_rank(), -1);
  EXPECT_EQ(ramc_tgt_activate_bb(), RAMC_ERROR);
  EXPECT_NE(std::string(ramc_last_error()).find("before ramc_init"),
            std::string::npos);
  struct ramc_init_win_info_s W;
  std::memset(&W, 0, sizeof(W));
  uint8_t B[8];
  EXPECT_EQ(ramc_put(B, 8, &W, 0), RAMC_ERROR);
  EXPECT_EQ(ramc_finalize(), RAMC_ERROR);
}

TEST(SingleProcessCompat, DoubleDestroyAndUnfilledStructs) {
  setenv("RAMC_BOOTSTRAP", "single", 1);
  setenv("RAMC_PROVIDER", "sockets", 1);
  setenv("FI_SOCKETS_IFACE", "lo", 0);
  ASSERT_EQ(ramc_init(), RAMC_SUCCESS) << ramc_last_error();
  EXPECT_EQ(ramc_init(), RAMC_ERROR); // twice
  uint8_t Buf[16];
  struct ramc_target_win_info_s T;
  ASSERT_EQ(ramc_tgt_create_window(Buf, sizeof(Buf), 5, 3, &T), RAMC_SUCCESS);
  EXPECT_EQ(T.rank, 0);
  EXPECT_EQ(T.buffer, Buf);
  EXPECT_EQ(T.status_val, 3u);
  EXPECT_EQ(ramc_tgt_increment_win_status(&T, 2), RAMC_SUCCESS);
  EXPECT_EQ(T.status_val, 5u);
  EXPECT_EQ(ramc_tgt_get_win_status_raw(&T), 5u);
  EXPECT_EQ(ramc_tgt_destroy_window(&T), RAMC_SUCCESS);
  EXPECT_EQ(ramc_tgt_destroy_window(&T), RAMC_ERROR);
  EXPECT_NE(std::string(ramc_last_error()).find("destroyed already"),
            std::string::npos)
      << ramc_last_error();
  struct ramc_target_win_info_s Huge;
  EXPECT_EQ(ramc_tgt_create_window(Buf, SIZE_MAX, 6, 3, &Huge), RAMC_ERROR);
  EXPECT_NE(std::string(ramc_last_error())
                .find("ramc_tgt_create_window on rank 0: a window of"),
            std::string::npos)
      << ramc_last_error();
  struct ramc_target_win_info_s Junk;
  std::memset(&Junk, 0xab, sizeof(Junk));
  EXPECT_EQ(ramc_tgt_post_window(&Junk), RAMC_ERROR);
  EXPECT_EQ(ramc_tgt_post_window(nullptr), RAMC_ERROR);
  EXPECT_EQ(ramc_finalize(), RAMC_SUCCESS);
  unsetenv("RAMC_BOOTSTRAP");
  unsetenv("RAMC_PROVIDER");
}

TEST(SingleProcessOptions, BadSettingsAreReported) {
  struct Case {
    const char *Var, *Value, *Expect;
  } Cases[] = {
      {"RAMC_NOTIFY", "bogus", "RAMC_NOTIFY='bogus' is not one of"},
      {"RAMC_BOOTSTRAP", "bogus", "RAMC_BOOTSTRAP='bogus' is not one of"},
      {"RAMC_TIMEOUT_MS", "12x", "RAMC_TIMEOUT_MS='12x' is not an integer"},
      {"RAMC_MAX_WINDOWS", "0", "RAMC_MAX_WINDOWS=0 is outside"},
      {"RAMC_PROVIDER", "no-such-provider",
       "fi_getinfo found no provider named no-such-provider"},
  };
  for (const Case &C : Cases) {
    setenv("RAMC_BOOTSTRAP", "single", 1);
    setenv(C.Var, C.Value, 1);
    ramc_ctx_t *Ctx = reinterpret_cast<ramc_ctx_t *>(1);
    char Err[512] = "";
    EXPECT_EQ(ramc_ctx_create(nullptr, &Ctx, Err, sizeof(Err)), RAMC_ERROR)
        << C.Var;
    EXPECT_EQ(Ctx, nullptr);
    EXPECT_NE(std::string(Err).find(C.Expect), std::string::npos) << Err;
    unsetenv(C.Var);
    unsetenv("RAMC_BOOTSTRAP");
  }
  ramc_ctx_options_t O;
  ramc_ctx_options_init(&O);
  O.notify = 7;
  ramc_ctx_t *Ctx = nullptr;
  char Err[512] = "";
  EXPECT_EQ(ramc_ctx_create(&O, &Ctx, Err, sizeof(Err)), RAMC_ERROR);
  EXPECT_NE(std::string(Err).find("options.notify=7"), std::string::npos);
  EXPECT_EQ(ramc_ctx_create(&O, nullptr, Err, sizeof(Err)), RAMC_ERROR);
  EXPECT_EQ(ramc_ctx_rank(nullptr), -1);
  EXPECT_EQ(ramc_ctx_barrier(nullptr), RAMC_ERROR);
  EXPECT_EQ(ramc_debug_live_objects(), 0);
}

std::string transportName(const ::testing::TestParamInfo<Transport> &I) {
  std::string N = I.param.Provider;
  for (char &C : N)
    if (C == ';')
      C = '_';
  return N +
         (I.param.Mode == ramc::Notify::MrCounter ? "_mr_counter" : "_cq_data");
}

INSTANTIATE_TEST_SUITE_P(
    Providers, SingleProcess,
    ::testing::Values(Transport{"sockets", ramc::Notify::MrCounter},
                      Transport{"sockets", ramc::Notify::CqData},
                      Transport{"shm", ramc::Notify::CqData},
                      Transport{"tcp;ofi_rxm", ramc::Notify::CqData}),
    transportName);

} // namespace
