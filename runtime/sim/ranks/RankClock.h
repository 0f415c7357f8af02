//===- RankClock.h - A rank's own time, ahead of SimGrid's clock -*- C++
//-*-===//
//
// Most of what a rank spends between two MPI calls is time nobody else can
// see: call overheads, launch costs, synchronization charges, and waits for
// kernels that run alone on a GPU only this rank uses. Sleeping each of them
// is a simulation step (a context switch to SimGrid and back). Instead the
// rank keeps its own time ahead of SimGrid's clock and sleeps once, to that
// time, right before it next does something others can see (an MPI or RAMC
// call, a flow, a stream's actor, a kernel on a GPU others use): "catching
// up". Nobody can tell the difference: other actors run only while this one
// is inside a simcall, and it catches up before each.
//
// At most one rank is ahead at a time (the one running). Whatever the
// runtime reads as "now" on its behalf is its own time (now()); every other
// actor reads SimGrid's clock.
//
// A simcall the rank makes without catching up first (an MPI call in code
// that was not instrumented) happens too early by what is still ahead; each
// such case is counted and reported as a warning (the next catch-up finds
// that SimGrid's clock moved meanwhile). docs/simulate.md, "A rank's time
// ahead of the clock".
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_RANKCLOCK_H
#define ORRERY_SIM_RANKCLOCK_H

namespace orrery::sim {

struct Rank;

namespace rank_clock {

/// Whether ranks may run ahead of the clock: not when SMPI times the host
/// code (orrery-run --host-compute: its timer charges at each simcall),
/// nor with ORRERY_RANK_CLOCK=0 (every charge a sleep of its own).
bool enabled();

/// The calling actor's time: the running rank's own when it is ahead,
/// SimGrid's clock otherwise.
double now();

/// Whether \p R is the running rank and ahead of SimGrid's clock.
bool isAhead(const Rank &R);
/// Whether \p R is the running actor (ahead of the clock or not).
bool isRunning(const Rank &R);

/// \p Seconds of CPU time of \p R (the calling rank) pass.
void advance(Rank &R, double Seconds);
/// \p R's time moves to \p Time if that is later.
void advanceTo(Rank &R, double Time);

/// If the calling actor is a rank ahead of the clock, it sleeps to its own
/// time: call before any simcall others can observe.
void catchUp();

/// As catchUp(), but without the sleep: the calling rank stops being ahead
/// and gets back by how much it was (0 if it was not), for a simcall whose
/// effect it delays by that much itself (a flow that starts late by its
/// latency, Runtime::cpuFlow).
double handOff();

/// \p R ends (its actor terminates): the end of its time, ahead or not.
double endOf(const Rank &R);

/// Simcalls made while ahead (each happened too early), over all ranks.
unsigned long earlySimcalls();
/// Charges and waits taken ahead of the clock, and sleeps that caught up,
/// over all ranks (the report's rank_clock).
unsigned long long chargesAhead();
unsigned long long catchUps();

} // namespace rank_clock
} // namespace orrery::sim

#endif // ORRERY_SIM_RANKCLOCK_H
