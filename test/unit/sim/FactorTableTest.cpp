//===- FactorTableTest.cpp - SMPI factor tables as the runtime reads them -===//

#include "mpi/NetworkFactors.h"

#include <gtest/gtest.h>

using orrery::sim::FactorTable;

TEST(FactorTable, PiecewiseConstantByThreshold) {
  FactorTable T;
  std::string Error;
  // SMPI's default bandwidth factors (3.32), in its own unsorted order.
  ASSERT_TRUE(T.parse("65472:0.940694;15424:0.697866;9376:0.58729;"
                      "5776:1.08739;3484:0.77493;1426:0.608902;"
                      "732:0.341987;257:0.338112;0:0.812084",
                      Error))
      << Error;
  EXPECT_DOUBLE_EQ(T.at(0), 0.812084);
  EXPECT_DOUBLE_EQ(T.at(256), 0.812084);
  EXPECT_DOUBLE_EQ(T.at(257), 0.338112);
  EXPECT_DOUBLE_EQ(T.at(65471), 0.697866);
  EXPECT_DOUBLE_EQ(T.at(1 << 20), 0.940694);
}

TEST(FactorTable, EmptyMeansOne) {
  FactorTable T;
  std::string Error;
  ASSERT_TRUE(T.parse("", Error));
  EXPECT_DOUBLE_EQ(T.at(1000), 1.0);
}

TEST(FactorTable, BelowEveryThresholdIsOne) {
  FactorTable T;
  std::string Error;
  ASSERT_TRUE(T.parse("100:0.5", Error));
  EXPECT_DOUBLE_EQ(T.at(99), 1.0);
  EXPECT_DOUBLE_EQ(T.at(100), 0.5);
}

TEST(FactorTable, MalformedEntriesAreErrors) {
  FactorTable T;
  std::string Error;
  EXPECT_FALSE(T.parse("1", Error));
  EXPECT_NE(Error.find("'1'"), std::string::npos) << Error;
  EXPECT_FALSE(T.parse("10:", Error));
  EXPECT_FALSE(T.parse("10:-2", Error));
  EXPECT_FALSE(T.parse("x:1", Error));
}
