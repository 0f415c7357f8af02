//===- ReportPrinterTest.cpp - The human-readable simulation report -------===//

#include "ReportPrinter.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace orrery::run;
using nlohmann::json;

namespace {

json minimal() {
  return json::parse(R"({
    "schema": "orrery-sim-report/1", "ranks": 4, "simulated_seconds": 0.002,
    "breakdown": {"network": 0.004, "kernel_compute": 0.004}
  })");
}

std::string render(const json &J, bool &Ok, std::string &Error) {
  std::ostringstream OS;
  Ok = printReport(J, OS, Error);
  return OS.str();
}

TEST(ReportPrinter, ColumnsAreAligned) {
  json J = minimal();
  J["kernels"] = json::parse(R"([
    {"name": "short", "site": "a.cu:1", "launches": 3, "flops": 2e9,
     "bytes": 1e9, "seconds": 1e-3, "confidence": "exact"},
    {"name": "a_much_longer_kernel", "site": "b.cu:20", "launches": 1000,
     "seconds": 2e-3, "confidence": "symbolic"}])");
  bool Ok;
  std::string E;
  std::string Text = render(J, Ok, E);
  ASSERT_TRUE(Ok) << E;
  // Sorted by time, numbers right-aligned under their headers.
  EXPECT_NE(Text.find("  name                  site     launches  GFLOP     GB"
                      "      time  confidence\n"
                      "  a_much_longer_kernel  b.cu:20      1000  0.000  0.000"
                      "  2.000 ms  symbolic\n"
                      "  short                 a.cu:1          3  2.000  1.000"
                      "  1.000 ms  exact\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("  kernel compute  1.000 ms   50.0%\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("  total           2.000 ms  100.0%\n"),
            std::string::npos)
      << Text;
}

TEST(ReportPrinter, KernelListIsCut) {
  json J = minimal();
  for (int I = 0; I < 25; ++I)
    J["kernels"].push_back({{"name", "k" + std::to_string(I)},
                            {"site", "a.cu:" + std::to_string(I)},
                            {"launches", 1},
                            {"seconds", I}});
  bool Ok;
  std::string E;
  std::string Text = render(J, Ok, E);
  ASSERT_TRUE(Ok) << E;
  EXPECT_NE(Text.find("  ... and 5 more (see the JSON report)\n"),
            std::string::npos)
      << Text;
  EXPECT_EQ(Text.find(" k4 "), std::string::npos) << Text;
}

TEST(ReportPrinter, ProblemsNameTheFieldAndPrintNothing) {
  struct Case {
    const char *Field;
    json Value;
    const char *Error;
  } Cases[] = {
      {"ranks", 0, "'ranks' must be a whole number >= 1"},
      {"ranks", 2.5, "'ranks' must be a whole number >= 1"},
      {"simulated_seconds", -1,
       "'simulated_seconds' must be a finite number >= 0, not -1"},
      {"breakdown", json::array(), "'breakdown' must be an object"},
      {"warnings", json::array({1}), "'warnings[0]' must be a string"},
      {"kernels", json::array({{{"name", "k"}, {"site", "a.cu:3"}}}),
       "missing 'kernels[0].launches'"},
      {"machine", json{{"name", 3}}, "'machine.name' must be a string, not 3"},
  };
  for (const Case &C : Cases) {
    json J = minimal();
    J[C.Field] = C.Value;
    bool Ok;
    std::string E;
    std::string Text = render(J, Ok, E);
    EXPECT_FALSE(Ok) << C.Field;
    EXPECT_EQ(E, C.Error);
    EXPECT_TRUE(Text.empty());
  }
  json J = minimal();
  J.erase("breakdown");
  bool Ok;
  std::string E;
  render(J, Ok, E);
  EXPECT_EQ(E, "missing 'breakdown'");
  std::string NotObject;
  render(json::array(), Ok, NotObject);
  EXPECT_EQ(NotObject, "the report must be a JSON object");
}

TEST(ReportPrinter, ReadReportNamesThePath) {
  json J;
  std::string E;
  EXPECT_FALSE(readReport("/nonexistent/report.json", J, E));
  EXPECT_EQ(E, "/nonexistent/report.json: cannot read the report (No such "
               "file or directory)");
}

} // namespace
