//===- ValueScheduleTest.cpp - Successive device reads' values ------------===//

#include "orrery/support/ValueSchedule.h"

#include <gtest/gtest.h>

#include <cstdlib>

using orrery::support::parseValueSchedule;
using orrery::support::ValueSchedule;

namespace {

ValueSchedule parse(const std::string &Text) {
  ValueSchedule S;
  std::string Error;
  EXPECT_TRUE(parseValueSchedule(Text, S, Error)) << Text << ": " << Error;
  return S;
}

} // namespace

TEST(ValueSchedule, AConstantIsEveryRead) {
  ValueSchedule S = parse("1.0");
  EXPECT_TRUE(S.constant());
  EXPECT_EQ(S.valueAt(0), "1.0");
  EXPECT_EQ(S.valueAt(1000000), "1.0");
  EXPECT_TRUE(parse("0x3f").constant());
}

TEST(ValueSchedule, SegmentsThenForGood) {
  // A solver that converges on its 60th check: 59 reads above the
  // tolerance, then below it.
  ValueSchedule S = parse("1.0*59,1e-12");
  EXPECT_FALSE(S.constant());
  EXPECT_EQ(S.valueAt(0), "1.0");
  EXPECT_EQ(S.valueAt(58), "1.0");
  EXPECT_EQ(S.valueAt(59), "1e-12");
  EXPECT_EQ(S.valueAt(5000), "1e-12");
}

TEST(ValueSchedule, EveryPartCountedRepeats) {
  // 60 reads a cycle: each outer step converges after 60 checks.
  ValueSchedule S = parse("1.0*59, 1e-12*1");
  EXPECT_EQ(S.valueAt(59), "1e-12");
  EXPECT_EQ(S.valueAt(60), "1.0");
  EXPECT_EQ(S.valueAt(119), "1e-12");
}

TEST(ValueSchedule, Geometric) {
  ValueSchedule S = parse("geom(1.0,0.5)*3,0");
  EXPECT_DOUBLE_EQ(std::atof(S.valueAt(0).c_str()), 1.0);
  EXPECT_DOUBLE_EQ(std::atof(S.valueAt(2).c_str()), 0.25);
  EXPECT_EQ(S.valueAt(3), "0");
  ValueSchedule G = parse("geom(2,0.7)");
  EXPECT_NEAR(std::atof(G.valueAt(10).c_str()), 2 * 0.0282475249, 1e-12);
}

TEST(ValueSchedule, KeepLeavesTheSimulatedValue) {
  ValueSchedule S = parse("keep*3,0");
  EXPECT_EQ(S.valueAt(0), "keep");
  EXPECT_EQ(S.valueAt(2), "keep");
  EXPECT_EQ(S.valueAt(3), "0");
  EXPECT_TRUE(parse("keep").constant());
  ValueSchedule Bad;
  std::string Error;
  EXPECT_FALSE(parseValueSchedule("kept*2,0", Bad, Error));
  EXPECT_NE(Error.find("keep (the value the simulation has)"),
            std::string::npos)
      << Error;
}

TEST(ValueSchedule, ErrorsSayWhatIsWrong) {
  ValueSchedule S;
  std::string Error;
  EXPECT_FALSE(parseValueSchedule("fast", S, Error));
  EXPECT_NE(Error.find("'fast' is not a number"), std::string::npos) << Error;
  EXPECT_FALSE(parseValueSchedule("1.0*0,2", S, Error));
  EXPECT_NE(Error.find("not a count of reads >= 1"), std::string::npos);
  EXPECT_FALSE(parseValueSchedule("1.0,2", S, Error));
  EXPECT_NE(Error.find("only the last part may go on for good"),
            std::string::npos);
  EXPECT_FALSE(parseValueSchedule("geom(1)", S, Error));
  EXPECT_NE(Error.find("geom(START,RATIO)"), std::string::npos);
  EXPECT_FALSE(parseValueSchedule("", S, Error));
}
