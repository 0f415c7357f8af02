//===- DeviceSpansTest.cpp - Pairing and reading device events -----------===//
//
// DeviceSpans on a fake event clock: each event completes at a device time
// the test sets (milliseconds), or stays pending until it does.
//
//===----------------------------------------------------------------------===//

#include "DeviceSpans.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

using orrery::native::DeviceSpan;
using orrery::native::DeviceSpans;
using orrery::native::EventClock;

namespace {

/// Events are small integers; stream 0x1 is the idle stream. The test says
/// when each recorded event completes (device milliseconds) by the order it
/// was recorded on its stream.
class FakeClock final : public EventClock {
public:
  struct Event {
    const void *Stream = nullptr;
    int Index = -1; ///< its place among the events recorded on Stream
    bool Fails = false;
  };
  /// Device time (ms) at which the N-th event recorded on Stream completes;
  /// unset: still running.
  std::map<std::pair<const void *, int>, double> DoneAt;
  std::map<const void *, int> Recorded;
  std::vector<std::unique_ptr<Event>> Events;
  const void *Context = reinterpret_cast<const void *>(0xC0);
  const void *Idle = reinterpret_cast<const void *>(0x1);
  int Created = 0, Queries = 0, Waits = 0;
  bool FailCreate = false;

  const void *context() override { return Context; }
  void *create() override {
    if (FailCreate)
      return nullptr;
    ++Created;
    Events.push_back(std::make_unique<Event>());
    return Events.back().get();
  }
  const void *idleStream() override { return Idle; }
  bool record(void *E, const void *Stream) override {
    auto *Ev = static_cast<Event *>(E);
    Ev->Stream = Stream;
    Ev->Index = Recorded[Stream]++;
    if (Stream == Idle)
      DoneAt[{Stream, Ev->Index}] = 0;
    return true;
  }
  std::optional<double> doneAt(void *E) {
    auto *Ev = static_cast<Event *>(E);
    auto It = DoneAt.find({Ev->Stream, Ev->Index});
    if (It == DoneAt.end())
      return std::nullopt;
    return It->second;
  }
  State query(void *E) override {
    ++Queries;
    if (static_cast<Event *>(E)->Fails)
      return State::Failed;
    return doneAt(E) ? State::Done : State::Pending;
  }
  bool wait(void *E) override {
    ++Waits;
    auto *Ev = static_cast<Event *>(E);
    if (Ev->Fails)
      return false;
    // Waiting lets the stream run: the event and those before it on its
    // stream complete, 1 ms apart after the last one that had.
    double Last = 0;
    for (const auto &[Key, At] : DoneAt)
      if (Key.first == Ev->Stream)
        Last = std::max(Last, At);
    for (int I = 0; I <= Ev->Index; ++I)
      if (!DoneAt.count({Ev->Stream, I}))
        DoneAt[{Ev->Stream, I}] = ++Last;
    return true;
  }
  bool elapsedMs(void *From, void *To, float &Ms) override {
    std::optional<double> A = doneAt(From), B = doneAt(To);
    if (!A || !B)
      return false;
    Ms = static_cast<float>(*B - *A);
    return true;
  }
  void destroy(void *) override {}
};

const void *stream(uintptr_t S) { return reinterpret_cast<const void *>(S); }

orrery_site site(unsigned Line) {
  return {ORRERY_HOOK_ABI_VERSION, Line,          "app.cu", Line, 1,
          ORRERY_KIND_LAUNCH,      "cudaLaunchKernel", "k"};
}

// A launch's span is the device time between its two events; its start is
// placed on the host timeline from the reference event, recorded on the
// idle stream when the first call began (host time 2 s, device 0 ms).
TEST(DeviceSpans, PairsTheEventsAroundACall) {
  FakeClock C;
  DeviceSpans D(C);
  static const orrery_site K = site(10);
  long T = D.begin(&K, stream(0x50), 2.0);
  ASSERT_GE(T, 0);
  D.end(T);
  C.DoneAt[{stream(0x50), 0}] = 3.0; // start event
  C.DoneAt[{stream(0x50), 1}] = 7.5; // stop event
  std::vector<DeviceSpan> Out;
  D.poll(Out);
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_EQ(Out[0].Site, &K);
  EXPECT_EQ(Out[0].Stream, stream(0x50));
  EXPECT_DOUBLE_EQ(Out[0].Start, 2.0 + 3.0e-3);
  EXPECT_NEAR(Out[0].Duration, 4.5e-3, 1e-9);
  EXPECT_EQ(D.pending(), 0u);
  EXPECT_EQ(D.untimed(), 0u);
}

// poll never waits: work still running stays pending, and a pair still
// running on a stream holds back the later pairs of that stream (not
// queried), while another stream's finished pair is read.
TEST(DeviceSpans, PollReadsOnlyFinishedWorkInStreamOrder) {
  FakeClock C;
  DeviceSpans D(C);
  static const orrery_site A = site(1), B = site(2), X = site(3);
  long Ta = D.begin(&A, stream(0x50), 0);
  D.end(Ta);
  long Tb = D.begin(&B, stream(0x50), 0);
  D.end(Tb);
  long Tx = D.begin(&X, stream(0x60), 0);
  D.end(Tx);
  C.DoneAt[{stream(0x50), 0}] = 1; // A started, not finished
  C.DoneAt[{stream(0x60), 0}] = 1;
  C.DoneAt[{stream(0x60), 1}] = 2; // X finished
  std::vector<DeviceSpan> Out;
  D.poll(Out);
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_EQ(Out[0].Site, &X);
  EXPECT_EQ(C.Waits, 0);
  EXPECT_EQ(C.Queries, 2); // A's stop and X's stop; not B's
  EXPECT_EQ(D.pending(), 2u);

  C.DoneAt[{stream(0x50), 1}] = 4; // A's stop
  C.DoneAt[{stream(0x50), 2}] = 4; // B's start
  C.DoneAt[{stream(0x50), 3}] = 9; // B's stop
  Out.clear();
  D.poll(Out);
  ASSERT_EQ(Out.size(), 2u);
  EXPECT_EQ(Out[0].Site, &A);
  EXPECT_EQ(Out[1].Site, &B);
  EXPECT_NEAR(Out[1].Duration, 5e-3, 1e-9);
  EXPECT_EQ(C.Waits, 0);
}

// A call whose end has not come (another thread inside it) is not read,
// and holds back its stream; drain at exit waits for what ended and counts
// what never did as untimed.
TEST(DeviceSpans, DrainWaitsForEndedPairsOnly) {
  FakeClock C;
  DeviceSpans D(C);
  static const orrery_site A = site(1), B = site(2);
  long Ta = D.begin(&A, stream(0x50), 0);
  long Tb = D.begin(&B, stream(0x70), 0);
  D.end(Tb);
  std::vector<DeviceSpan> Out;
  D.poll(Out);
  EXPECT_TRUE(Out.empty());
  D.drain(Out);
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_EQ(Out[0].Site, &B);
  EXPECT_GT(C.Waits, 0);
  EXPECT_EQ(D.untimed(), 1u); // A never ended
  EXPECT_EQ(D.pending(), 0u);
  D.end(Ta); // too late: ignored
  EXPECT_EQ(D.pending(), 0u);
}

// No context or no event: the call is not timed, and nothing is recorded.
TEST(DeviceSpans, CallsWithoutEventsAreCountedUntimed) {
  FakeClock C;
  C.FailCreate = true;
  DeviceSpans D(C);
  static const orrery_site A = site(1);
  EXPECT_EQ(D.begin(&A, stream(0x50), 0), -1);
  D.end(-1);
  C.FailCreate = false;
  C.Context = nullptr;
  EXPECT_EQ(D.begin(&A, stream(0x50), 0), -1);
  EXPECT_EQ(D.untimed(), 2u);
  EXPECT_EQ(D.pending(), 0u);
}

// An event that fails (its context torn down) drops its pair as untimed.
TEST(DeviceSpans, FailedEventsAreDropped) {
  FakeClock C;
  DeviceSpans D(C);
  static const orrery_site A = site(1);
  long T = D.begin(&A, stream(0x50), 0);
  D.end(T);
  for (auto &E : C.Events)
    E->Fails = true;
  std::vector<DeviceSpan> Out;
  D.poll(Out);
  EXPECT_TRUE(Out.empty());
  EXPECT_EQ(D.untimed(), 1u);
  EXPECT_EQ(D.pending(), 0u);
}

// Events of read pairs are reused: a loop of launches does not create an
// event pair per launch.
TEST(DeviceSpans, ReusesTheEventsOfReadPairs) {
  FakeClock C;
  DeviceSpans D(C);
  static const orrery_site A = site(1);
  for (int I = 0; I < 100; ++I) {
    long T = D.begin(&A, stream(0x50), 0);
    D.end(T);
    C.DoneAt[{stream(0x50), 2 * I}] = I;
    C.DoneAt[{stream(0x50), 2 * I + 1}] = I + 0.5;
    std::vector<DeviceSpan> Out;
    D.poll(Out);
    ASSERT_EQ(Out.size(), 1u);
  }
  EXPECT_EQ(C.Created, 3); // the reference and one pair
}

} // namespace
