//===- spin_budget.cpp - how long a waiter spins before it gives way ------===//
//
// A wait spins, then blocks on the provider's descriptors or yields
// (backoff.h). Spinning costs the CPU others might use; blocking costs the
// wake-up when the awaited completion arrives. Spinning for as long as a
// block-and-wake costs, then blocking, is never worse than twice the best
// choice made in hindsight (Karlin, Li, Manasse and Owicki, "Empirical
// studies of competitive spinning for a shared-memory multiprocessor",
// SOSP 1991). So by default (RAMC_SPIN_US unset or "auto"), where this
// node runs more of the job's processes than it has CPUs for them or waits
// block (RAMC_WAIT=block, fabric_wait.cpp), a process measures once, when its
// first context opens a native transport, how long waking a thread blocked on a
// descriptor takes here: half the median of 32 round trips between two threads
// over eventfds (7-21 us a round trip on an idle 2-core virtual machine, 66-69
// us with both cores busy), and spins for that long, within 5 us..1 ms. On
// dedicated cores giving way helps no one (a yield returns at once) and costs a
// system call per poll, 2-4 % of tcp;ofi_rxm's bandwidth at 8-64 KiB here with
// a measured 9 us budget: there waits that poll spin 200 us, as before.
//
// After the spin a polling waiter yields; on oversubscribed nodes it sleeps
// 20 us between polls once it has waited RAMC_YIELD_US (5 ms), so that the
// processes it waits for get the core. On dedicated cores it yields at most
// every 50 us (RAMC_YIELD_GAP_US), for threads that share the process's
// cores (a provider's progress thread, the application's own): a yield per
// poll there held 16 KiB puts over tcp;ofi_rxm to 0.86x a raw fi_write
// loop, against 0.92x without yields (median of 10 interleaved rounds; the
// target polls while 63 of a window's 64 writes land without a completion,
// so its wait looks idle and passes the budget). It never sleeps:
// a provider without progress of its own (tcp) moves a large put's bytes
// only while the processes poll, and sleeping waiters held 4 MiB puts over
// tcp;ofi_rxm to 3.5-4.4 GB/s against 4.9-5.5 without (1 MiB: 4.2-5.4
// against 5.7-7.9; 0.63-0.70x a raw fi_write loop in two benchmark runs).
//
//===----------------------------------------------------------------------===//
#include "context.h"

#include "backoff.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sys/eventfd.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace ramc {

namespace {
constexpr int64_t kDefaultSpinUs = 200; // on dedicated cores
constexpr int64_t kMinSpinUs = 5, kMaxSpinUs = 1000;
constexpr int kRoundTrips = 32;
constexpr int64_t kOversubscribedYieldUs = 5000;
constexpr int64_t kDedicatedYieldGapUs = 50;

BackoffPhases Phases{std::chrono::microseconds(kDefaultSpinUs),
                     std::chrono::microseconds(kOversubscribedYieldUs)};
bool SpinMeasured = false;

/// Half the median round trip between two threads over eventfds: the cost
/// of waking a thread blocked on a descriptor.
int64_t measureWakeUs() {
  int Ping = eventfd(0, EFD_CLOEXEC), Pong = eventfd(0, EFD_CLOEXEC);
  std::vector<double> Trips;
  if (Ping >= 0 && Pong >= 0) {
    std::thread Echo([&] {
      uint64_t V;
      for (int I = 0; I < kRoundTrips; ++I)
        if (read(Ping, &V, sizeof(V)) != sizeof(V) || V != 1 ||
            write(Pong, &V, sizeof(V)) != sizeof(V))
          return;
    });
    for (int I = 0; I < kRoundTrips; ++I) {
      auto T0 = std::chrono::steady_clock::now();
      uint64_t V = 1;
      if (write(Ping, &V, sizeof(V)) != sizeof(V) ||
          read(Pong, &V, sizeof(V)) != sizeof(V))
        break;
      Trips.push_back(std::chrono::duration<double, std::micro>(
                          std::chrono::steady_clock::now() - T0)
                          .count());
    }
    if (static_cast<int>(Trips.size()) < kRoundTrips) {
      uint64_t V = 2; // anything but 1 ends the echo thread
      if (write(Ping, &V, sizeof(V)) != sizeof(V))
        V = 0;
    }
    Echo.join();
  }
  if (Ping >= 0)
    close(Ping);
  if (Pong >= 0)
    close(Pong);
  if (Trips.empty())
    return kDefaultSpinUs;
  std::nth_element(Trips.begin(), Trips.begin() + Trips.size() / 2,
                   Trips.end());
  return static_cast<int64_t>(Trips[Trips.size() / 2] / 2);
}
} // namespace

const BackoffPhases &backoffPhases() { return Phases; }

bool Options::loadWaiting(std::string &Err) {
  const char *Spin = std::getenv("RAMC_SPIN_US");
  if (Spin && *Spin && std::strcmp(Spin, "auto") != 0) {
    int64_t V = -1;
    if (!envInt("RAMC_SPIN_US", V, Err) || V < 0 || V > 10000000) {
      Err = format("RAMC_SPIN_US='%s' is neither a number of microseconds "
                   "(0..10000000) nor auto (measured)",
                   Spin);
      return false;
    }
    SpinUs = V;
  }
  int64_t Yield = YieldUs;
  if (!envInt("RAMC_YIELD_US", Yield, Err))
    return false;
  if (Yield < -1) {
    Err = format("RAMC_YIELD_US=%lld is negative (-1: the default)",
                 static_cast<long long>(Yield));
    return false;
  }
  YieldUs = Yield;
  int64_t Gap = YieldGapUs;
  if (!envInt("RAMC_YIELD_GAP_US", Gap, Err))
    return false;
  if (Gap < -1 || Gap > 10000000) {
    Err = format("RAMC_YIELD_GAP_US=%lld is outside -1..10000000 (-1: the "
                 "default)",
                 static_cast<long long>(Gap));
    return false;
  }
  YieldGapUs = Gap;
  return true;
}

void Context::initWaiting() {
  bool Dedicated = !Tr->cpusShared() && !Tr->waitsBlock();
  // For ever: a year (Backoff compares it in nanoseconds, where
  // microseconds::max() would overflow).
  auto Forever = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::hours(24 * 365));
  Phases.Yield = Opts.YieldUs >= 0 ? std::chrono::microseconds(Opts.YieldUs)
                 : Dedicated
                     ? Forever
                     : std::chrono::microseconds(kOversubscribedYieldUs);
  Phases.YieldGap = std::chrono::microseconds(
      Opts.YieldGapUs >= 0 ? Opts.YieldGapUs
                           : (Dedicated ? kDedicatedYieldGapUs : 0));
  if (Opts.SpinUs >= 0) {
    Phases.Spin = std::chrono::microseconds(Opts.SpinUs);
    SpinMeasured = false;
    return;
  }
  if (Dedicated) {
    Phases.Spin = std::chrono::microseconds(kDefaultSpinUs);
    SpinMeasured = false;
    return;
  }
  static const int64_t WakeUs =
      std::clamp(measureWakeUs(), kMinSpinUs, kMaxSpinUs); // once
  Phases.Spin = std::chrono::microseconds(WakeUs);
  SpinMeasured = true;
}

std::string describeSpin() {
  std::string S =
      format(" spin=%lldus%s", static_cast<long long>(Phases.Spin.count()),
             SpinMeasured ? "(measured)" : "");
  if (Phases.YieldGap.count() > 0)
    S += format(" yield_gap=%lldus",
                static_cast<long long>(Phases.YieldGap.count()));
  return S;
}

} // namespace ramc
