//===- backoff.h - polite polling -------------------------------*- C++ -*-===//
//
// Every RAMC wait polls first (fi_cntr_wait cannot be trusted). A waiter
// spins for its budget (spin_budget.cpp: RAMC_SPIN_US, by default the
// measured cost of a wake-up on oversubscribed nodes and 200 us on
// dedicated cores); then, where the transport can block until a completion
// arrives (Fabric::waitForEvent, RAMC_WAIT), it blocks; elsewhere it yields
// the CPU between polls (as cheap as spinning when no one else wants the
// CPU) until RAMC_YIELD_US (default 5000 on oversubscribed nodes, for ever
// on dedicated cores: spin_budget.cpp), and then sleeps 20 us between
// polls, so that on oversubscribed nodes the processes it waits for get to
// run. On dedicated cores it yields at most once every RAMC_YIELD_GAP_US
// (50 us): there a yield only matters to threads sharing the process's
// cores, and one per poll cost tcp;ofi_rxm 6 % of its bandwidth at 16 KiB.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_BACKOFF_H
#define RAMC_SRC_BACKOFF_H

#include <chrono>
#include <sched.h>
#include <string>
#include <time.h>

namespace ramc {

struct BackoffPhases {
  std::chrono::microseconds Spin;
  std::chrono::microseconds Yield;
  std::chrono::microseconds YieldGap{0}; // least time between two yields
};
const BackoffPhases &backoffPhases();
/// " spin=9us(measured)" or " spin=200us yield_gap=50us": the budget waits
/// spin for and the least time between yields, where there is one
/// (spin_budget.cpp), for a transport's describe().
std::string describeSpin();

class Backoff {
public:
  /// Counts a poll; whether the waiter has spun for its budget already.
  bool spun() {
    if (++N < 16)
      return false; // the first polls are always tight
    // The clock every 8th poll: a read costs 31 ns under kvm-clock, as
    // much as a poll of an idle shm queue (the budget is microseconds).
    if ((N & 7) == 0) { // N == 16 among them
      auto Now = std::chrono::steady_clock::now();
      if (N == 16)
        Start = Now;
      Waited = Now - Start;
    }
    return Waited >= backoffPhases().Spin;
  }
  void pause() {
    if (!spun())
      return;
    const BackoffPhases &P = backoffPhases();
    if (Waited < P.Yield) {
      if (Waited - LastYield >= P.YieldGap) {
        LastYield = Waited;
        sched_yield();
      }
      return;
    }
    timespec T{0, 20000};
    nanosleep(&T, nullptr);
  }

private:
  unsigned N = 0;
  std::chrono::steady_clock::time_point Start;
  std::chrono::steady_clock::duration Waited{};
  std::chrono::steady_clock::duration LastYield{};
};

} // namespace ramc

#endif
