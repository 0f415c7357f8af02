//===- ReportPrinter.h - The human-readable simulation report ---*- C++ -*-===//
//
// Reads the JSON report the simulator runtime writes (docs/report.md,
// docs/orrery-run.md) and renders it as text: the
// simulated time, where it went per category, the kernels, how much of the
// GPU time rests on estimated numbers, and the warnings.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_RUN_REPORTPRINTER_H
#define ORRERY_TOOL_RUN_REPORTPRINTER_H

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

namespace orrery::run {

/// Reads and parses \p Path. Returns false with \p Error naming the path
/// (missing, unreadable or not JSON).
bool readReport(const std::string &Path, nlohmann::json &Out,
                std::string &Error);

/// Renders \p Report on \p OS. Returns false, printing nothing, with \p Error
/// naming the offending field if the report does not follow the schema.
bool printReport(const nlohmann::json &Report, std::ostream &OS,
                 std::string &Error);

/// The exit status a run with this report ends with: 0 when it completed,
/// else the failure's (the MPI_Abort code, 1 for a deadlock).
int reportExitStatus(const nlohmann::json &Report);

} // namespace orrery::run

#endif // ORRERY_TOOL_RUN_REPORTPRINTER_H
