//===- CollectivesTest.cpp - The Open MPI 4.1 collective table ------------===//

#include "Collectives.h"

#include <gtest/gtest.h>

#include <map>

using namespace orrery::run;

namespace {

std::map<std::string, std::string> choices(int Ranks) {
  std::map<std::string, std::string> M;
  for (const CollectiveChoice &C : openMpiTunedChoices(Ranks))
    M[C.Collective] = C.Algorithm;
  return M;
}

TEST(Collectives, EveryCollectiveAtEverySize) {
  for (int Ranks : {1, 2, 3, 4, 7, 8, 63, 64, 127, 128, 255, 256, 1023, 1024,
                    4096, 100000}) {
    auto M = choices(Ranks);
    EXPECT_EQ(M.size(), 11u) << Ranks << " ranks";
    for (const char *C :
         {"allreduce", "reduce", "bcast", "allgather", "allgatherv", "gather",
          "scatter", "alltoall", "alltoallv", "barrier", "reduce_scatter"})
      EXPECT_FALSE(M[C].empty()) << C << " at " << Ranks << " ranks";
  }
}

TEST(Collectives, AllreduceIsRecursiveDoublingThenReduceBcast) {
  // Open MPI 4.1 for 8 B: ring/segmented ring fall back to recursive doubling
  // below count < ranks; nonoverlapping (reduce + bcast) from 128 ranks.
  EXPECT_EQ(choices(16)["allreduce"], "rdb");
  EXPECT_EQ(choices(127)["allreduce"], "rdb");
  EXPECT_EQ(choices(128)["allreduce"], "redbcast");
  EXPECT_EQ(choices(1024)["allreduce"], "redbcast");
}

TEST(Collectives, AllgatherFallsBackToBruckOffPowersOfTwo) {
  EXPECT_EQ(choices(64)["allgather"], "rdb");
  EXPECT_EQ(choices(96)["allgather"], "bruck");
  EXPECT_EQ(choices(1)["allgather"], "rdb");
}

TEST(Collectives, BarrierFollowsTheCommunicatorSize) {
  EXPECT_EQ(choices(2)["barrier"], "ompi_recursivedoubling");
  EXPECT_EQ(choices(4)["barrier"], "ompi_basic_linear");
  EXPECT_EQ(choices(8)["barrier"], "ompi_recursivedoubling");
  EXPECT_EQ(choices(64)["barrier"], "ompi_bruck");
  EXPECT_EQ(choices(256)["barrier"], "ompi_tree");
  EXPECT_EQ(choices(512)["barrier"], "ompi_bruck");
  EXPECT_EQ(choices(1024)["barrier"], "ompi_tree");
  EXPECT_EQ(choices(4096)["barrier"], "ompi_bruck");
}

TEST(Collectives, LinearAlltoallOnlyBelowSixtyFourRanks) {
  EXPECT_EQ(choices(63)["alltoall"], "basic_linear");
  EXPECT_EQ(choices(64)["alltoall"], "ring");
  EXPECT_EQ(choices(3)["alltoallv"], "ring");
  EXPECT_EQ(choices(4)["alltoallv"], "ompi_basic_linear");
  EXPECT_EQ(choices(64)["alltoallv"], "ring");
}

TEST(Collectives, SingleRankAvoidsAlgorithmsSmpiGetsWrong) {
  // SMPI 3.32: ompi_binary reduce aborts and ompi_butterfly reduce_scatter
  // returns a wrong result on one rank.
  EXPECT_EQ(choices(1)["reduce"], "ompi_basic_linear");
  EXPECT_EQ(choices(1)["reduce_scatter"], "ompi_basic_recursivehalving");
}

TEST(Collectives, OnlyOmpiHasATable) {
  EXPECT_TRUE(hasCollectiveTable("ompi"));
  EXPECT_FALSE(hasCollectiveTable("mpich"));
  EXPECT_FALSE(hasCollectiveTable(""));
}

} // namespace
