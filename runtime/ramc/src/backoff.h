//===- backoff.h - polite polling -------------------------------*- C++ -*-===//
//
// Every RAMC wait polls (fi_cntr_wait cannot be trusted). A waiter spins
// first, then yields the CPU between polls (as cheap as spinning when no one
// else wants the CPU), and after a while sleeps 20 us between polls, so that
// on oversubscribed nodes the processes it waits for get to run.
// RAMC_SPIN_US (default 200) and RAMC_YIELD_US (default 5000) set the
// phases; oversubscribed runs want a short spin (the tests use 20).
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_BACKOFF_H
#define RAMC_SRC_BACKOFF_H

#include <chrono>
#include <sched.h>
#include <time.h>

namespace ramc {

struct BackoffPhases {
  std::chrono::microseconds Spin;
  std::chrono::microseconds Yield;
};
const BackoffPhases &backoffPhases();

class Backoff {
public:
  void pause() {
    if (++N < 16)
      return; // the first polls are always tight
    auto Now = std::chrono::steady_clock::now();
    if (N == 16)
      Start = Now;
    auto Waited = Now - Start;
    const BackoffPhases &P = backoffPhases();
    if (Waited < P.Spin)
      return;
    if (Waited < P.Yield) {
      sched_yield();
      return;
    }
    timespec T{0, 20000};
    nanosleep(&T, nullptr);
  }

private:
  unsigned N = 0;
  std::chrono::steady_clock::time_point Start;
};

} // namespace ramc

#endif
