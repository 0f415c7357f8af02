//===- Polling.h - Polling loops in few simulation steps --------*- C++ -*-===//
//
// A program that spins on a clock read (MPI_Wtime, gettimeofday,
// clock_gettime) or on cudaStreamQuery/cudaEventQuery makes one simulation
// step per call: millions of steps for a loop that waits a second of
// simulated time. A streak of polls (calls with nothing else advancing the
// rank's clock in between) is charged so that it takes few steps
// (docs/simulate.md, "Polling loops").
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_POLLING_H
#define ORRERY_SIM_POLLING_H

#include <array>
#include <vector>

namespace orrery::sim {

struct Completion;
struct Rank;

/// Polls of one kind a rank made back to back.
struct PollStreak {
  double Origin = 0;       ///< simulated time the streak began
  double LastEnd = -1;     ///< simulated time the streak's last poll returned
  unsigned Polls = 0;      ///< polls in the streak so far
  unsigned long Steps = 0; ///< poll intervals covered since Origin
};

/// A rank's streak of clock reads, and where they were called from: the
/// first call site to come round again is the head of a polling loop, and
/// only its reads are charged more (straight-line reads after the loop, such
/// as the one that times it, keep smpi/wtime).
struct ClockStreak {
  PollStreak Polls;
  const void *Head = nullptr;          ///< the loop's head, once a site repeats
  std::array<const void *, 8> Sites{}; ///< distinct sites before that
  unsigned NumSites = 0;
};

/// What a read at the head of a clock-polling loop may cost, as a fraction
/// of the streak so far, unless ORRERY_CLOCK_READ_GROWTH (orrery-run
/// --clock-read-growth) says otherwise.
constexpr double DefaultClockReadGrowth = 0.5;

/// The most one such read costs: a loop of clock reads that waits for
/// nothing (it times host code, which costs no simulated time) gains at
/// most this per iteration, not a time growing without bound.
constexpr double MaxClockReadCharge = 100e-6;

/// The fraction in effect: ORRERY_CLOCK_READ_GROWTH or the default; a value
/// that is not a number from 0 to 1 is a fatal error naming the variable.
double clockReadGrowth();

/// After a clock read of the calling rank that began at \p Before, called
/// from \p Site (the program's return address): a read at the streak's loop
/// head (ClockStreak) is charged max(smpi/wtime, min(G x the time since the
/// streak began, MaxClockReadCharge)), G = clockReadGrowth(); every other
/// read keeps smpi/wtime. Past smpi/wtime / G the streak grows by a factor
/// 1 + G per loop iteration until a read costs MaxClockReadCharge, so a loop
/// that reads the clock until T has passed takes about
/// 1 / G + ln(G T / smpi/wtime) / ln(1 + G) iterations below that (19 for
/// T = 16 us at G = 0.5) and one per MaxClockReadCharge above it (124 for
/// 10 ms), and overshoots T by less than min(G T, MaxClockReadCharge).
void chargeClockRead(Rank &R, double Before, const void *Site);

/// cudaStreamQuery/cudaEventQuery: whether every completion of \p Cs is
/// reached. A poll costs t_sync / 4 and looks at the end of it; the n-th
/// poll of a streak stands for up to n such polls and returns as soon as
/// one of them would have seen the work done, at the time it would have.
/// A loop polling one stream or event thus ends when polling every
/// t_sync / 4 would, after about sqrt(2 T / (t_sync / 4)) calls for T of
/// work.
bool pollCompletions(Rank &R, const std::vector<Completion> &Cs);

} // namespace orrery::sim

#endif // ORRERY_SIM_POLLING_H
