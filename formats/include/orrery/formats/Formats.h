//===- Formats.h - The names of Orrery's file formats -----------*- C++ -*-===//
//
// The report schema, its breakdown categories, a sweep's settings and the
// columns of its results.csv, each defined once in a .def list beside this
// header. Writers and readers take the names from here (report::Ranks is
// "ranks"); the tables drive the schema check (ReportCheck.h), the
// generated docs/report.md and the constants of orrery-plot.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_FORMATS_FORMATS_H
#define ORRERY_FORMATS_FORMATS_H

#include <cstddef>

namespace orrery::formats {

/// The report's schema: "orrery-sim-report/<version>". The version grows
/// when a field changes meaning or type or a Core field is added; readers
/// refuse other versions with a message saying which side is newer.
#define ORRERY_REPORT_SCHEMA_VERSION 1
#define ORRERY_FORMATS_STR2(X) #X
#define ORRERY_FORMATS_STR(X) ORRERY_FORMATS_STR2(X)
inline constexpr const char ReportSchemaName[] = "orrery-sim-report";
inline constexpr int ReportSchemaVersion = ORRERY_REPORT_SCHEMA_VERSION;
inline constexpr const char ReportSchema[] =
    "orrery-sim-report/" ORRERY_FORMATS_STR(ORRERY_REPORT_SCHEMA_VERSION);

/// The report's keys, by the Ids of ReportFields.def.
namespace report {
#define ORRERY_REPORT_FIELD(Id, Parent, Key, Type, Presence, Kinds, Meaning)   \
  inline constexpr const char Id[] = Key;
#include "orrery/formats/ReportFields.def"
#undef ORRERY_REPORT_FIELD
} // namespace report

/// The breakdown's keys, by the Ids of ReportCategories.def.
namespace category {
#define ORRERY_REPORT_CATEGORY(Id, Key, Label, Sum, Presence, Meaning)         \
  inline constexpr const char Id[] = Key;
#include "orrery/formats/ReportCategories.def"
#undef ORRERY_REPORT_CATEGORY
} // namespace category

/// A study's settings, by the Ids of SweepSettings.def.
namespace setting {
#define ORRERY_SWEEP_SETTING(Id, Key, Value, Option, From, Words, Meaning)     \
  inline constexpr const char Id[] = Key;
#include "orrery/formats/SweepSettings.def"
#undef ORRERY_SWEEP_SETTING
} // namespace setting

/// results.csv's columns after the settings and parameters, by the Ids of
/// ResultsColumns.def.
namespace column {
#define ORRERY_RESULTS_COLUMN(Id, Column, From, Meaning)                       \
  inline constexpr const char Id[] = Column;
#include "orrery/formats/ResultsColumns.def"
#undef ORRERY_RESULTS_COLUMN
} // namespace column

enum class FieldType {
  Text,
  KindWord, ///< a report's kind: "measured" or "predicted"
  Number,
  Integer,
  Ranks,
  Flag,
  Object,
  Table,
  Texts,
  Seconds
};
enum class Presence { Core, Always, Optional };
enum class Kinds { Both, Predicted, Measured };

struct ReportField {
  const char *Id, *Parent, *Key;
  FieldType Type;
  Presence When;
  Kinds In;
  const char *Meaning;
};

struct ReportCategory {
  const char *Id, *Key, *Label, *Sum;
  Presence When;
  bool MeasuredOnly; ///< a native run's category, never a simulation's
  const char *Meaning;
};

enum class SettingValue { Count, Path, Word, Assignment };

struct SweepSetting {
  const char *Id, *Key;
  SettingValue Value;
  const char *Option;
  const char *From;  ///< the report field's Id that says what ran, or "None"
  const char *Words; ///< a Word setting's words, separated by spaces
  const char *Meaning;
};

struct ResultsColumn {
  const char *Id, *Column;
  const char *From; ///< the report field's Id, or "Row"
  const char *Meaning;
};

/// A list and its length, in the .def's order.
template <typename T> struct Table {
  const T *Begin;
  std::size_t Size;
  const T *begin() const { return Begin; }
  const T *end() const { return Begin + Size; }
  std::size_t size() const { return Size; }
};

Table<ReportField> reportFields();
Table<ReportCategory> reportCategories();
Table<SweepSetting> sweepSettings();
Table<ResultsColumn> resultsColumns();

const char *fieldTypeName(FieldType T); ///< "number"
const char *presenceName(Presence P);   ///< "core"
const char *kindsName(Kinds K);         ///< "both"
const char *settingValueName(SettingValue V);

} // namespace orrery::formats

#endif // ORRERY_FORMATS_FORMATS_H
