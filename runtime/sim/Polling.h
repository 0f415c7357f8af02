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

/// After a clock read of the calling rank that began at \p Before: the
/// n-th read of a streak is charged n x smpi/wtime in all, as SMPI's
/// smpi/grow-injected-times does for MPI_Test, so a loop that reads the
/// clock until T has passed takes about sqrt(2 T / smpi/wtime) reads.
void chargeClockRead(Rank &R, double Before);

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
