//===- ReportCheckTest.cpp - A report checked against its schema ----------===//

#include "orrery/formats/ReportCheck.h"
#include "orrery/formats/Formats.h"

#include <gtest/gtest.h>

using namespace orrery::formats;
using nlohmann::json;

namespace {

json minimal() {
  json J = json::parse(R"({"ranks": 2, "simulated_seconds": 1e-3,
    "breakdown": {"network": 1e-3}})");
  J["schema"] = ReportSchema;
  return J;
}

std::string readError(const json &J) {
  std::string E;
  EXPECT_FALSE(checkReport(J, CheckMode::Read, E)) << J.dump();
  return E;
}

TEST(ReportCheck, ReadNeedsOnlyTheCoreFields) {
  std::string E;
  EXPECT_TRUE(checkReport(minimal(), CheckMode::Read, E)) << E;
  json J = minimal();
  J.erase("breakdown");
  EXPECT_EQ(readError(J), "missing 'breakdown'");
  J = minimal();
  J.erase("simulated_seconds");
  EXPECT_EQ(readError(J), "missing 'simulated_seconds'");
  // A measured report has its own total instead.
  J["kind"] = "measured";
  EXPECT_EQ(readError(J), "missing 'measured_seconds'");
  J["measured_seconds"] = 2e-3;
  EXPECT_TRUE(checkReport(J, CheckMode::Read, E)) << E;
}

TEST(ReportCheck, NamesTheFieldAndWhatItMustBe) {
  json J = minimal();
  J["kernels"] = json::array({{{"name", "k"},
                               {"site", "a.cu:3"},
                               {"launches", "many"},
                               {"seconds", 1}}});
  EXPECT_EQ(readError(J),
            "'kernels[0].launches' must be a number, not \"many\"");
  J["kernels"][0]["launches"] = 4;
  J["kernels"][0].erase("site");
  EXPECT_EQ(readError(J), "missing 'kernels[0].site'");
  J = minimal();
  J["ranks"] = 2.5;
  EXPECT_EQ(readError(J), "'ranks' must be a whole number >= 1");
  J["ranks"] = 2;
  J["simulated_seconds"] = -1;
  EXPECT_EQ(readError(J),
            "'simulated_seconds' must be a finite number >= 0, not -1");
  J["simulated_seconds"] = 1;
  J["machine"] = {{"name", 3}};
  EXPECT_EQ(readError(J), "'machine.name' must be a string, not 3");
  J.erase("machine");
  J["warnings"] = json::array({1});
  EXPECT_EQ(readError(J), "'warnings[0]' must be a string");
  J.erase("warnings");
  J["breakdown"]["sync"] = "slow";
  EXPECT_EQ(readError(J), "'breakdown.sync' must be a number, not \"slow\"");
  J = minimal();
  J["kind"] = 3;
  EXPECT_EQ(readError(J), "'kind' must be \"measured\" (a native run's "
                          "report) or \"predicted\", not 3");
}

TEST(ReportCheck, ReadLeavesUnknownFieldsAlone) {
  json J = minimal();
  J["a_field_of_a_later_orrery"] = {1, 2};
  J["breakdown"]["future_category"] = 1e-6;
  std::string E;
  EXPECT_TRUE(checkReport(J, CheckMode::Read, E)) << E;
}

TEST(ReportCheck, VersionsSayWhichSideIsNewer) {
  json J = minimal();
  std::string Newer = std::string(ReportSchemaName) + "/" +
                      std::to_string(ReportSchemaVersion + 1);
  J["schema"] = Newer;
  EXPECT_EQ(readError(J),
            "schema '" + Newer + "' is newer than this Orrery reads ('" +
                ReportSchema +
                "'); read it with the Orrery that wrote it, or update this "
                "one");
  J["schema"] = std::string(ReportSchemaName) + "/" +
                std::to_string(ReportSchemaVersion - 1);
  EXPECT_NE(readError(J).find("is older than this Orrery reads"),
            std::string::npos);
  J["schema"] = "orrery-profile/1";
  EXPECT_EQ(readError(J), "schema 'orrery-profile/1' is not "
                          "orrery-sim-report/N (write reports with orrery-run "
                          "--report or ORRERY_REPORT)");
  J["schema"] = std::string(ReportSchema) + "x";
  EXPECT_NE(readError(J).find("is not orrery-sim-report/N"), std::string::npos);
}

// What a writer must produce: every field its kind always has, nothing the
// schema does not list, nothing of the other kind.
TEST(ReportCheck, WrittenModeHoldsWritersToTheSchema) {
  std::string E;
  EXPECT_FALSE(checkReport(minimal(), CheckMode::Written, E));
  EXPECT_EQ(E, "missing 'machine'");
  json J = minimal();
  J["rank"] = 0;
  EXPECT_TRUE(checkReport(J, CheckMode::Read, E)) << E;
  J["machine"] = {{"name", "m"}, {"file", "m.yaml"}, {"gpus", 4}};
  EXPECT_FALSE(checkReport(J, CheckMode::Written, E));
  EXPECT_EQ(E, "'machine.gpus' is not a field of " + std::string(ReportSchema) +
                   " (add it "
                   "to formats/include/orrery/formats/ReportFields.def)");
}

} // namespace
