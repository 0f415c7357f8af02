//===- OptionsTest.cpp - orrery-run's command line and placement ----------===//

#include "Placement.h"
#include "RunOptions.h"

#include <gtest/gtest.h>

#include <vector>

using namespace orrery::run;

namespace {

bool parse(std::vector<const char *> Args, RunOptions &O, std::string &Error) {
  Args.insert(Args.begin(), "orrery-run");
  return parseRunOptions(static_cast<int>(Args.size()), Args.data(), O, Error);
}

TEST(RunOptions, OptionsStopAtTheProgram) {
  RunOptions O;
  std::string E;
  ASSERT_TRUE(parse({"-np", "4", "--machine=m.yaml", "--smpi-cfg", "a:b",
                     "--smpi-cfg=c:d", "-v", "./app", "--nodes", "2", "x"},
                    O, E))
      << E;
  EXPECT_EQ(O.Ranks, 4);
  EXPECT_EQ(O.Machine, "m.yaml");
  EXPECT_EQ(O.SmpiCfg, (std::vector<std::string>{"a:b", "c:d"}));
  EXPECT_TRUE(O.Verbose);
  EXPECT_EQ(O.Nodes, 0);
  EXPECT_EQ(O.App, "./app");
  EXPECT_EQ(O.AppArgs, (std::vector<std::string>{"--nodes", "2", "x"}));
}

TEST(RunOptions, DoubleDashEndsTheOptions) {
  RunOptions O;
  std::string E;
  ASSERT_TRUE(parse({"-np", "1", "--", "-weird-name"}, O, E)) << E;
  EXPECT_EQ(O.App, "-weird-name");
}

TEST(RunOptions, ErrorsNameTheOption) {
  RunOptions O;
  std::string E;
  EXPECT_FALSE(parse({"-np", "x"}, O, E));
  EXPECT_EQ(E, "-np needs a whole number >= 1, not 'x'");
  EXPECT_FALSE(parse({"--network", "fast"}, O, E));
  EXPECT_EQ(E, "--network must be 'auto', 'smpi' or 'ideal', not 'fast'");
  EXPECT_FALSE(parse({"--smpi-cfg", "a:b c"}, O, E));
  EXPECT_NE(E.find("white space"), std::string::npos) << E;
  EXPECT_FALSE(parse({"--keep-temps=1"}, O, E));
  EXPECT_EQ(E, "option --keep-temps takes no value");
  EXPECT_FALSE(parse({"--trace"}, O, E));
  EXPECT_EQ(E, "option --trace needs a value");
}

TEST(RunOptions, DefaultNetworkModeFollowsTheFigures) {
  RunOptions O;
  std::string E;
  ASSERT_TRUE(parse({"-np", "2", "app"}, O, E)) << E;
  EXPECT_EQ(O.Network, NetworkMode::Auto);
  // MPI-level figures: no SMPI factors on top; line rates: SMPI's factors.
  EXPECT_EQ(resolveNetworkMode(O.Network, true), NetworkMode::Ideal);
  EXPECT_EQ(resolveNetworkMode(O.Network, false), NetworkMode::Smpi);
  ASSERT_TRUE(parse({"--network", "smpi", "app"}, O, E)) << E;
  EXPECT_EQ(resolveNetworkMode(O.Network, true), NetworkMode::Smpi);
  ASSERT_TRUE(parse({"--network=ideal", "app"}, O, E)) << E;
  EXPECT_EQ(resolveNetworkMode(O.Network, false), NetworkMode::Ideal);
  ASSERT_TRUE(parse({"--network", "auto", "app"}, O, E)) << E;
  EXPECT_EQ(O.Network, NetworkMode::Auto);
}

TEST(Placement, DefaultsFollowTheGpus) {
  Placement P;
  std::string E;
  ASSERT_TRUE(placeRanks(10, 4, 0, 0, P, E));
  EXPECT_EQ(P.RanksPerNode, 4);
  EXPECT_EQ(P.Nodes, 3);
  ASSERT_TRUE(placeRanks(10, 4, 0, 1, P, E));
  EXPECT_EQ(P.Nodes, 10);
  ASSERT_TRUE(placeRanks(10, 4, 5, 0, P, E));
  EXPECT_EQ(P.Nodes, 5);
}

TEST(Placement, TooFewNodesIsAnError) {
  Placement P;
  std::string E;
  EXPECT_FALSE(placeRanks(10, 4, 2, 0, P, E));
  EXPECT_EQ(E, "--nodes 2 with 4 ranks per node (the machine's GPUs per node) "
               "holds 8 ranks, fewer than -np 10; give --nodes 3 or more, or "
               "raise --ranks-per-node");
}

} // namespace
