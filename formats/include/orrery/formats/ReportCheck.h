//===- ReportCheck.h - A report, checked against its schema -----*- C++ -*-===//
//
// One check of a JSON report against ReportFields.def, for every reader
// (orrery-run, orrery-compare, orrery-sweep) and for the tests of the
// writers. Messages name the field's path ("kernels[0].launches") and what
// it must be.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_FORMATS_REPORTCHECK_H
#define ORRERY_FORMATS_REPORTCHECK_H

#include <nlohmann/json.hpp>

#include <string>

namespace orrery::formats {

enum class CheckMode {
  /// What a reader needs: the schema's version, the Core fields of the
  /// report's kind, and the type of every known field given; fields it
  /// does not know are left alone.
  Read,
  /// What a writer must produce: also every Always field of the report's
  /// kind, no field of the other kind, no field the schema does not list.
  Written
};

/// True for a native run's report ("kind": "measured").
bool isMeasuredReport(const nlohmann::json &J);

/// Checks "schema": false with \p Error saying whether the report is not
/// one at all, or is of a newer or older version than this build reads.
bool checkReportSchema(const nlohmann::json &J, std::string &Error);

/// Checks \p J against the schema (checkReportSchema first); false with
/// \p Error naming the first field at fault.
bool checkReport(const nlohmann::json &J, CheckMode Mode, std::string &Error);

} // namespace orrery::formats

#endif // ORRERY_FORMATS_REPORTCHECK_H
