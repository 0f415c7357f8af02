//===- FormatListsTest.cpp - The .def lists are well formed ---------------===//

#include "orrery/formats/Formats.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

using namespace orrery::formats;

namespace {

const ReportField *byId(const char *Id) {
  for (const ReportField &F : reportFields())
    if (std::strcmp(F.Id, Id) == 0)
      return &F;
  return nullptr;
}

// Every parent is an object or table listed before its fields; ids are
// unique, and keys unique within their parent.
TEST(FormatLists, ReportFieldsFormATree) {
  std::set<std::string> Ids, Keys;
  for (const ReportField &F : reportFields()) {
    EXPECT_TRUE(Ids.insert(F.Id).second) << F.Id;
    EXPECT_TRUE(Keys.insert(std::string(F.Parent) + "/" + F.Key).second)
        << F.Key;
    if (std::strcmp(F.Parent, "Root") == 0)
      continue;
    const ReportField *P = byId(F.Parent);
    ASSERT_NE(P, nullptr) << F.Id << "'s parent " << F.Parent;
    EXPECT_LT(P, &F) << F.Id << " comes before its parent";
    EXPECT_TRUE(P->Type == FieldType::Object || P->Type == FieldType::Table)
        << F.Parent;
  }
}

TEST(FormatLists, KeysAreTheirConstants) {
  EXPECT_STREQ(report::SimulatedSeconds, "simulated_seconds");
  EXPECT_STREQ(report::KernelName, "name");
  EXPECT_STREQ(category::KernelCompute, "kernel_compute");
  EXPECT_STREQ(setting::RanksPerNode, "ranks_per_node");
  EXPECT_STREQ(column::SimulatedSeconds, "simulated_seconds");
  EXPECT_EQ(std::string(ReportSchema), std::string(ReportSchemaName) + "/" +
                                           std::to_string(ReportSchemaVersion));
}

// A results column copies a top-level or machine field, or describes the
// row; no column repeats a setting's name.
TEST(FormatLists, ResultsColumnsNameReportFields) {
  std::set<std::string> Names = {"point", "point_name"};
  for (const SweepSetting &S : sweepSettings()) {
    EXPECT_TRUE(Names.insert(S.Key).second) << S.Key;
    if (std::strcmp(S.From, "None") == 0)
      continue;
    const ReportField *F = byId(S.From);
    ASSERT_NE(F, nullptr) << S.Key << " reads back unknown field " << S.From;
    EXPECT_TRUE(std::strcmp(F->Parent, "Root") == 0 ||
                byId(F->Parent)->Type == FieldType::Object)
        << S.Key;
  }
  for (const ResultsColumn &C : resultsColumns()) {
    EXPECT_TRUE(Names.insert(C.Column).second) << C.Column;
    if (std::strcmp(C.From, "Row") == 0)
      continue;
    const ReportField *F = byId(C.From);
    ASSERT_NE(F, nullptr) << C.Column << " copies unknown field " << C.From;
    EXPECT_TRUE(std::strcmp(F->Parent, "Root") == 0 ||
                byId(F->Parent)->Type == FieldType::Object)
        << C.Column;
  }
}

TEST(FormatLists, CategoriesAreUniqueAndMeasuredOnesLast) {
  std::set<std::string> Keys;
  bool SeenMeasured = false;
  for (const ReportCategory &C : reportCategories()) {
    EXPECT_TRUE(Keys.insert(C.Key).second) << C.Key;
    EXPECT_FALSE(SeenMeasured && !C.MeasuredOnly)
        << C.Key
        << ": runtime/sim's Category enum numbers the simulation's "
           "categories first";
    SeenMeasured = SeenMeasured || C.MeasuredOnly;
  }
}

} // namespace
