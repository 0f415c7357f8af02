//===- Formats.cpp - The format tables, expanded --------------------------===//

#include "orrery/formats/Formats.h"

namespace orrery::formats {

namespace {

constexpr ReportField Fields[] = {
#define ORRERY_REPORT_FIELD(Id, Parent, Key, Type, When, In, Meaning)          \
  {#Id, #Parent, Key, FieldType::Type, Presence::When, Kinds::In, Meaning},
#include "orrery/formats/ReportFields.def"
#undef ORRERY_REPORT_FIELD
};

constexpr ReportCategory Categories[] = {
#define ORRERY_REPORT_CATEGORY(Id, Key, Label, Sum, When, Meaning)             \
  {#Id, Key, Label, Sum, Presence::When, false, Meaning},
#define ORRERY_MEASURED_CATEGORY(Id, Key, Label, Sum, When, Meaning)           \
  {#Id, Key, Label, Sum, Presence::When, true, Meaning},
#include "orrery/formats/ReportCategories.def"
#undef ORRERY_REPORT_CATEGORY
};

constexpr SweepSetting Settings[] = {
#define ORRERY_SWEEP_SETTING(Id, Key, Value, Option, From, Words, Meaning)     \
  {#Id, Key, SettingValue::Value, Option, #From, Words, Meaning},
#include "orrery/formats/SweepSettings.def"
#undef ORRERY_SWEEP_SETTING
};

constexpr ResultsColumn Columns[] = {
#define ORRERY_RESULTS_COLUMN(Id, Column, From, Meaning)                       \
  {#Id, Column, #From, Meaning},
#include "orrery/formats/ResultsColumns.def"
#undef ORRERY_RESULTS_COLUMN
};

template <typename T, std::size_t N> Table<T> table(const T (&A)[N]) {
  return {A, N};
}

} // namespace

Table<ReportField> reportFields() { return table(Fields); }
Table<ReportCategory> reportCategories() { return table(Categories); }
Table<SweepSetting> sweepSettings() { return table(Settings); }
Table<ResultsColumn> resultsColumns() { return table(Columns); }

const char *fieldTypeName(FieldType T) {
  switch (T) {
  case FieldType::Text:
    return "string";
  case FieldType::KindWord:
    return "\"measured\" or \"predicted\"";
  case FieldType::Number:
    return "number >= 0";
  case FieldType::Integer:
    return "whole number";
  case FieldType::Ranks:
    return "whole number >= 1";
  case FieldType::Flag:
    return "true/false";
  case FieldType::Object:
    return "object";
  case FieldType::Table:
    return "array of objects";
  case FieldType::Texts:
    return "array of strings";
  case FieldType::Seconds:
    return "object of seconds";
  }
  return "?";
}

const char *presenceName(Presence P) {
  switch (P) {
  case Presence::Core:
    return "core";
  case Presence::Always:
    return "always";
  case Presence::Optional:
    return "optional";
  }
  return "?";
}

const char *kindsName(Kinds K) {
  switch (K) {
  case Kinds::Both:
    return "both";
  case Kinds::Predicted:
    return "predicted";
  case Kinds::Measured:
    return "measured";
  }
  return "?";
}

const char *settingValueName(SettingValue V) {
  switch (V) {
  case SettingValue::Count:
    return "whole number >= 1";
  case SettingValue::Path:
    return "file (relative to the study)";
  case SettingValue::Word:
    return "word";
  case SettingValue::Assignment:
    return "FILE:LINE=VALUE or FILE:LINE@ARG=VALUE, or a list";
  }
  return "?";
}

} // namespace orrery::formats
