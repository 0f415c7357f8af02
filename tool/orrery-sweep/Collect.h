//===- Collect.h - orrery-sweep: reports into one tidy CSV ------*- C++ -*-===//
//
// One row per point and time category, and one per point and kernel:
//
//   point,point_name,np,ranks_per_node,machine,network,network_file,
//   device_value,device_values,<parameters...>,machine_name,ranks,nodes,
//   simulated_seconds,wall_seconds,kind,name,site,seconds,share,launches,
//   flops,bytes,confidence
//
// kind is "category" (seconds: per rank on average, share: of all
// categories) or "kernel" (seconds: predicted device time of all launches).
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_SWEEP_COLLECT_H
#define ORRERY_TOOL_SWEEP_COLLECT_H

#include "Study.h"

#include <ostream>
#include <string>

namespace orrery::sweep {

struct CollectResult {
  std::size_t Points = 0, Collected = 0, Rows = 0;
  std::vector<std::string> Problems; // reports that could not be read
};

/// The results.csv columns of a study whose argument parameters are
/// \p Params, in order.
std::vector<std::string> csvColumns(const std::vector<std::string> &Params);

/// Appends to \p Out the rows of one report (its text as read) for point
/// \p P, one field per column of csvColumns(Params), counting them in
/// \p Rows. False, appending nothing, when the text is not a complete
/// orrery-sim-report/1 report.
bool appendReportRows(const std::string &Report, const Point &P,
                      const std::vector<std::string> &Params, std::ostream &Out,
                      std::size_t &Rows);

/// Writes DIR/results.csv from the done points of \p S (or, when \p S has
/// no points, from every orrery-sim-report/1 JSON file below DIR).
bool collect(const std::string &Dir, const Study &S, CollectResult &R,
             std::string &Error);

} // namespace orrery::sweep

#endif // ORRERY_TOOL_SWEEP_COLLECT_H
