//===- Polling.cpp - Polling loops in few simulation steps ----------------===//

#include "Polling.h"
#include "gpu/Streams.h"
#include "ranks/RankClock.h"
#include "ranks/Runtime.h"

#include <xbt/config.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

namespace orrery::sim {

/// The rank's streak of \p P continues if its clock advanced by at most
/// \p Slack since the streak's last poll returned (the rest of a polling
/// loop's body: a clock read for its timeout, an error query); otherwise a
/// new streak begins now.
static void continueOrRestart(PollStreak &P, double Now, double Slack = 0) {
  if (P.LastEnd < 0 || Now < P.LastEnd || Now > P.LastEnd + Slack) {
    P = PollStreak();
    P.Origin = Now;
  }
  ++P.Polls;
}

double clockReadGrowth() {
  const char *V = std::getenv("ORRERY_CLOCK_READ_GROWTH");
  if (!V || !*V)
    return DefaultClockReadGrowth;
  char *End = nullptr;
  double G = std::strtod(V, &End);
  if (End == V || *End != '\0' || !(G >= 0 && G <= 1))
    fatal(std::string("ORRERY_CLOCK_READ_GROWTH='") + V +
          "' is not a fraction from 0 to 1; set it with orrery-run's "
          "--clock-read-growth");
  return G;
}

/// Whether the read from \p Site is at the head of the streak's loop: the
/// first site seen twice since the streak began.
static bool atLoopHead(ClockStreak &C, const void *Site) {
  if (C.Head)
    return Site == C.Head;
  auto Seen = C.Sites.begin() + C.NumSites;
  if (std::find(C.Sites.begin(), Seen, Site) != Seen) {
    C.Head = Site;
    return true;
  }
  if (C.NumSites < C.Sites.size())
    C.Sites[C.NumSites++] = Site;
  return false;
}

void chargeClockRead(Rank &R, double Before, const void *Site) {
  static const double Injected =
      simgrid::config::get_value<double>("smpi/wtime");
  static const double Growth = clockReadGrowth();
  ClockStreak &C = R.ClockReads;
  if (Before != C.Polls.LastEnd)
    C = ClockStreak();
  continueOrRestart(C.Polls, Before);
  // The first read of a streak keeps SMPI's own charge; later ones are
  // topped up to their charge whatever SMPI charged (nothing, for some
  // clocks in some SimGrid versions).
  double Charge = Injected;
  if (atLoopHead(C, Site))
    Charge = std::max(Injected, std::min(Growth * (Before - C.Polls.Origin),
                                         MaxClockReadCharge));
  double Extra = C.Polls.Polls > 1 ? Charge - (now() - Before) : 0;
  if (Extra > MinActivitySeconds) {
    OutsideBench B;
    s4u::this_actor::sleep_for(Extra);
  }
  C.Polls.LastEnd = now();
}

bool pollCompletions(Rank &R, const std::vector<Completion> &Cs) {
  Runtime &RT = Runtime::get();
  const double Interval = RT.gpu().Sync / 4;
  auto AllDone = [&Cs] {
    return std::all_of(Cs.begin(), Cs.end(),
                       [](const Completion &C) { return C.done(); });
  };
  if (Interval <= 0)
    return AllDone();
  double Start = now();
  PollStreak &P = R.DeviceQueries;
  // A loop that reads the clock or asks for errors between its queries
  // (nccl-tests' does) is still one polling loop: less than a poll's
  // interval of other work between two queries keeps the streak.
  continueOrRestart(P, Start, Interval);
  // Each poll of the loop being replaced charges one interval, then looks;
  // this poll stands for up to P.Polls of them.
  unsigned long Last = P.Steps + P.Polls;
  bool Done = true;
  {
    OutsideBench B;
    double Deadline = P.Origin + static_cast<double>(Last) * Interval;
    for (const Completion &C : Cs)
      if (!C.waitUntil(Deadline)) {
        Done = false;
        break;
      }
    unsigned long Reached = Last;
    if (Done) {
      // The first of those polls that ends at or after the work's end.
      double Covered = (now() - P.Origin) / Interval;
      Reached = std::max<unsigned long>(
          P.Steps + 1, static_cast<unsigned long>(std::ceil(Covered - 1e-9)));
    }
    double End = P.Origin + static_cast<double>(Reached) * Interval;
    if (End - now() > MinActivitySeconds)
      rank_clock::advanceTo(R, End);
    P.Steps = Reached;
  }
  RT.chargeSince(R, Category::Sync, Start, RT.gpu().Estimates.Sync);
  P.LastEnd = now();
  return Done;
}

} // namespace orrery::sim
