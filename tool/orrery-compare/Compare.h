//===- Compare.h - Lining up a measured and a predicted report --*- C++ -*-===//
//
// Reads two reports in the orrery-run --report schema (orrery-sim-report/1;
// a native run writes the same schema with "kind": "measured") and lines
// them up: the total, each category of "breakdown", the MPI categories
// together (network, call_overhead, host_bounce, device_legs, reduction: a
// native run has all of an MPI call under network), the kernel categories
// together when a native run timed kernels on the device (kernel_compute,
// kernel_memory, kernel_device), each kernel site of
// "kernels" and each call site of "sites" where both reports have one. All
// times are seconds per rank (the report's sums divided by its "ranks").
// See docs/compare.md.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_COMPARE_COMPARE_H
#define ORRERY_TOOL_COMPARE_COMPARE_H

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace orrery::compare {

/// One report's times, per rank.
struct ReportTimes {
  std::string Path;
  std::string Kind; // "measured", "predicted"
  double Ranks = 1;
  /// Ranks of the run the report came from ("world_size" of a native
  /// report, else "ranks").
  double WorldSize = 1;
  double Total = 0;
  /// (row name, seconds per rank) in the report's order.
  std::vector<std::pair<std::string, double>> Categories, Kernels, Sites;
};

/// Parses \p Text (read from \p Path) into \p Out. False with \p Error
/// naming the file and line (JSON syntax) or the missing or mistyped key.
bool parseReport(const std::string &Path, const std::string &Text,
                 ReportTimes &Out, std::string &Error);

/// Reads \p Path and parses it as parseReport does.
bool readReport(const std::string &Path, ReportTimes &Out, std::string &Error);

/// Merges the per-process reports of one native run (ORRERY_REPORT with %r:
/// one file per rank) into \p Out: times per rank over all of them (sums
/// weighted by their ranks), the total of the slowest. False with \p Error
/// naming the file whose kind differs from the first's.
bool mergeReports(const std::vector<ReportTimes> &Parts, ReportTimes &Out,
                  std::string &Error);

/// One line of the comparison.
struct Row {
  std::string Group; // "total", "category", "sum", "kernel", "site"
  std::string Name;
  std::optional<double> Measured, Predicted;
  /// (predicted - measured) / measured; empty when a side is missing or the
  /// measured time is zero.
  std::optional<double> Error;
};

/// The rows, worst relative error first; rows without an error last, in
/// report order.
std::vector<Row> compare(const ReportTimes &Measured,
                         const ReportTimes &Predicted);

/// The median of |error| over the rows that have one (empty if none).
std::optional<double> medianAbsError(const std::vector<Row> &Rows);

/// The comparison as JSON (schema orrery-compare/1).
nlohmann::ordered_json toJson(const ReportTimes &Measured,
                              const ReportTimes &Predicted,
                              const std::vector<Row> &Rows);

} // namespace orrery::compare

#endif // ORRERY_TOOL_COMPARE_COMPARE_H
