//===- RankClock.cpp - A rank's own time, ahead of SimGrid's clock --------===//

#include "RankClock.h"
#include "RankEnvironment.h"
#include "Runtime.h"
#include "orrery/sim/Api.h"

#include <simgrid/s4u.hpp>

#include <cstdlib>
#include <cstring>

namespace orrery::sim::rank_clock {

namespace {

/// The rank ahead of the clock, and its actor; null when none is. Only the
/// running actor can be ahead: it catches up before anyone else runs,
/// unless it makes a simcall without (an uninstrumented MPI call): then
/// another rank may go ahead meanwhile, and the first is "stale" until it
/// runs again.
Rank *Ahead = nullptr;
const s4u::Actor *AheadActor = nullptr;
unsigned long Stale = 0;
unsigned long Early = 0;
unsigned long long Charges = 0, Sleeps = 0;

bool runningIs(const s4u::Actor *A) { return s4u::Actor::self() == A; }

/// Makes \p R, the running rank, the one ahead.
void becomeAhead(Rank &R) {
  if (Ahead && Ahead != &R)
    ++Stale;
  if (R.AheadTime >= 0 && Ahead != &R)
    --Stale;
  Ahead = &R;
  AheadActor = s4u::Actor::self();
}

/// The calling actor's rank if it is ahead of the clock, else null.
Rank *aheadSelf() {
  if (Ahead && runningIs(AheadActor))
    return Ahead;
  if (Stale == 0 || !inRankActor())
    return nullptr;
  Rank &R = Runtime::get().rank();
  if (R.AheadTime < 0)
    return nullptr;
  becomeAhead(R);
  return &R;
}

/// Makes \p R (the running rank) ahead of the clock if it is not yet.
void goAhead(Rank &R) {
  if (Ahead == &R)
    return;
  if (!aheadSelf()) {
    R.AheadTime = R.AheadFrom = s4u::Engine::get_clock();
    becomeAhead(R);
  }
}

} // namespace

bool enabled() {
  static const bool On = [] {
    if (api::benchmarking())
      return false;
    const char *V = std::getenv("ORRERY_RANK_CLOCK");
    return !V || std::strcmp(V, "0") != 0;
  }();
  return On;
}

double now() {
  if (Rank *R = aheadSelf())
    return R->AheadTime;
  return s4u::Engine::get_clock();
}

bool isAhead(const Rank &R) { return aheadSelf() == &R; }

bool isRunning(const Rank &R) { return runningIs(R.Actor); }

void advance(Rank &R, double Seconds) {
  if (Seconds <= 0)
    return;
  if (!enabled()) {
    s4u::this_actor::sleep_for(Seconds);
    return;
  }
  goAhead(R);
  R.AheadTime += Seconds;
  ++Charges;
}

void advanceTo(Rank &R, double Time) {
  if (!enabled()) {
    s4u::this_actor::sleep_until(Time);
    return;
  }
  goAhead(R);
  if (Time > R.AheadTime)
    R.AheadTime = Time;
  ++Charges;
}

double handOff() {
  Rank *Self = aheadSelf();
  if (!Self)
    return 0;
  Rank &R = *Self;
  Ahead = nullptr;
  AheadActor = nullptr;
  double Until = R.AheadTime;
  double Clock = s4u::Engine::get_clock();
  // SimGrid's clock moved while this rank was ahead: it made a simcall
  // without catching up, which happened too early.
  if (Clock != R.AheadFrom)
    ++Early;
  R.AheadTime = -1;
  return Until > Clock ? Until - Clock : 0;
}

void catchUp() {
  if (double Lag = handOff(); Lag > 0) {
    ++Sleeps;
    s4u::this_actor::sleep_for(Lag);
  }
}

double endOf(const Rank &R) {
  double Clock = s4u::Engine::get_clock();
  if (Ahead == &R) {
    Ahead = nullptr;
    AheadActor = nullptr;
  } else if (R.AheadTime >= 0) {
    --Stale;
  }
  return R.AheadTime > Clock ? R.AheadTime : Clock;
}

unsigned long earlySimcalls() { return Early; }
unsigned long long chargesAhead() { return Charges; }
unsigned long long catchUps() { return Sleeps; }

} // namespace orrery::sim::rank_clock
