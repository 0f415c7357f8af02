//===- Progress.h - orrery-sweep: the progress line -------------*- C++ -*-===//

#ifndef ORRERY_TOOL_SWEEP_PROGRESS_H
#define ORRERY_TOOL_SWEEP_PROGRESS_H

#include <chrono>
#include <ostream>
#include <string>

namespace orrery::sweep {

/// Counts points and estimates the time left from the mean wall time of the
/// points finished in this session. On a terminal the line is redrawn in
/// place; otherwise one line is printed per event.
class Progress {
public:
  Progress(std::ostream &OS, bool Terminal, std::size_t Total,
           std::size_t AlreadyDone, unsigned Jobs);

  void started() { ++Running; }
  /// A point ended after \p Seconds; \p Ok says how.
  void finished(bool Ok, double Seconds);
  void setJobs(unsigned J) { Jobs = J; }
  /// Draws the line (with \p Event, e.g. "done np4", first when not on a
  /// terminal).
  void draw(const std::string &Event = "");
  /// Ends the line on a terminal.
  void finish();

  std::size_t done() const { return Done; }
  std::size_t failed() const { return Failed; }
  std::string line() const;

private:
  std::ostream &OS;
  bool Terminal;
  std::size_t Total, Done, Failed = 0, Running = 0, FinishedHere = 0;
  unsigned Jobs;
  double SecondsHere = 0;
};

/// 75 s -> "1m15s".
std::string formatDuration(double Seconds);

} // namespace orrery::sweep

#endif // ORRERY_TOOL_SWEEP_PROGRESS_H
