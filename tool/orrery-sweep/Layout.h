//===- Layout.h - orrery-sweep: the output directory ------------*- C++ -*-===//
//
//   DIR/sweep.json              the expanded study (points, their commands)
//   DIR/points/NAME/point.json  what the point runs
//   DIR/points/NAME/report.json its report, present only once complete
//   DIR/points/NAME/log.txt     orrery-run's output
//   DIR/points/NAME/exit-status orrery-run's exit status (after a run)
//   DIR/results.csv             the tidy table (Collect.h)
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_SWEEP_LAYOUT_H
#define ORRERY_TOOL_SWEEP_LAYOUT_H

#include "Study.h"

#include "orrery/support/AtomicFile.h"

#include "orrery/support/ReadFile.h"

#include <nlohmann/json.hpp>

#include <string>

namespace orrery::sweep {

enum class State { Pending, Started, Failed, Done };
const char *stateName(State S);

std::string pointDir(const std::string &Dir, const Point &P);

using support::readFile;

/// The state of \p P's directory: Done when report.json is there and
/// point.json names the same command; Failed when exit-status is non-zero.
State pointState(const std::string &Dir, const Point &P);
/// The exit status recorded for \p P, or -1.
int recordedStatus(const std::string &Dir, const Point &P);

nlohmann::json pointJson(const Point &P);
Point pointFromJson(const nlohmann::json &J);
/// DIR/sweep.json: the study's points and varied names.
bool writeSweepJson(const std::string &Dir, const Study &S, std::string &Error);
/// Reads DIR/sweep.json back into \p S (points and varied names only).
bool readSweepJson(const std::string &Dir, Study &S, std::string &Error);

} // namespace orrery::sweep

#endif // ORRERY_TOOL_SWEEP_LAYOUT_H
