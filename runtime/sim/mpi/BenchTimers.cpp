//===- BenchTimers.cpp - SMPI 3.32's host-time timer, skipped when unread -===//
//
// SMPI times the host code that runs between MPI calls: every MPI call
// begins with smpi_bench_end (stop the rank's CPU-time timer; charge the
// time measured when smpi/simulate-computation is on; add it to the total
// smpi/display-timing prints at the end) and ends with smpi_bench_begin
// (switch the data segment under mmap privatization; restart the timer).
// Each timer read is clock_gettime(CLOCK_THREAD_CPUTIME_ID), a system call
// (the vDSO does not serve per-thread CPU clocks): two per MPI call, about
// 5 % of the wall time of a Jacobi simulation at 1,024 GPUs
// (docs/performance.md, "What SimGrid 3.32 walks quadratically").
//
// With simulate-computation and display-timing off (orrery-run's default;
// --host-compute turns simulate-computation on) and privatization other
// than mmap, nothing reads the timer and there is no segment to switch:
// this library, which orrery-run preloads, then answers both functions
// without doing anything. In any other configuration, or when
// ORRERY_SIMGRID_FIXES=0, they are SimGrid's. What is lost while skipped:
// smpi_bench_end's message for an MPI call made inside an SMPI_SAMPLE
// block (SMPI then aborts; the call now proceeds), and the benched total no
// setting in force prints. No simulated time changes
// (bench/same-results.sh).
//
// ORRERY_SIMGRID_FIXES=verbose prints at exit whether it was active and how
// many timer reads it skipped.
//
//===----------------------------------------------------------------------===//

#include "SimgridFixes.h"

#include <atomic>

using orrery::simgrid_fixes::real;

namespace {

using BenchFn = void (*)();

// SimGrid 3.32's SmpiPrivStrategies::MMAP (src/smpi/include/private.hpp).
constexpr int kMmapPrivatization = 1;

struct State {
  bool Skip = false;
  BenchFn RealBegin = nullptr, RealEnd = nullptr;
  std::atomic<unsigned long long> Skipped{0};
};

State &state() { return orrery::simgrid_fixes::lastingState<State>(); }

void printStats() {
  const State &S = state();
  std::fprintf(stderr,
               "orrery: SimGrid fix (bench timers): %s; %llu timer reads "
               "skipped\n",
               S.Skip ? "active" : "off", S.Skipped.load());
}

/// Whether SMPI's timer is unread in this run; decided at the first call
/// (SMPI has read its configuration before any rank runs).
bool decideSkip() {
  if (!orrery::simgrid_fixes::fixAllowed(printStats))
    return false;
  auto ConfigBool = reinterpret_cast<int (*)(const char *)>(
      dlsym(RTLD_DEFAULT, "sg_cfg_get_boolean"));
  const int *Privatization =
      static_cast<const int *>(dlsym(RTLD_DEFAULT, "_smpi_cfg_privatization"));
  return ConfigBool && Privatization && *Privatization != kMmapPrivatization &&
         !ConfigBool("smpi/simulate-computation") &&
         !ConfigBool("smpi/display-timing");
}

State &decided() {
  // A function-local static: decided once even if actors run in parallel.
  static State &S = []() -> State & {
    State &New = state();
    New.Skip = decideSkip();
    return New;
  }();
  return S;
}

/// SimGrid's \p Name through \p Real, unless its timer is unread.
void callUnlessSkipped(BenchFn State::*Real, const char *Name) {
  State &S = decided();
  if (S.Skip) {
    S.Skipped.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  real(S.*Real, Name)();
}

} // namespace

#define BENCH_BEGIN_SYMBOL "smpi_bench_begin"
#define BENCH_END_SYMBOL "smpi_bench_end"

extern "C" void orreryBenchBegin() ORRERY_REPLACES(BENCH_BEGIN_SYMBOL);
extern "C" void orreryBenchEnd() ORRERY_REPLACES(BENCH_END_SYMBOL);

void orreryBenchBegin() {
  callUnlessSkipped(&State::RealBegin, BENCH_BEGIN_SYMBOL);
}

void orreryBenchEnd() { callUnlessSkipped(&State::RealEnd, BENCH_END_SYMBOL); }
