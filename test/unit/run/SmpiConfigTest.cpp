//===- SmpiConfigTest.cpp - SimGrid settings of an Orrery run -------------===//

#include "SmpiConfig.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace orrery::run;

namespace {

bool has(const std::vector<std::string> &S, const std::string &Flag) {
  return std::find(S.begin(), S.end(), Flag) != S.end();
}

SmpiConfigInputs inputs() {
  SmpiConfigInputs In;
  In.Ranks = 16;
  In.CollectiveSelector = "ompi";
  In.CoreSpeed = 2e9;
  return In;
}

TEST(SmpiConfig, Defaults) {
  auto S = smpiSettings(inputs());
  EXPECT_EQ(S.front(), "--log=root.thresh:warning");
  EXPECT_TRUE(has(S, "--cfg=smpi/privatization:dlopen"));
  EXPECT_TRUE(has(S, "--cfg=smpi/simulate-computation:no"));
  EXPECT_TRUE(has(S, "--cfg=smpi/shared-malloc-blocksize:268435456"));
  EXPECT_TRUE(has(S, "--cfg=smpi/allreduce:rdb"));
  EXPECT_FALSE(has(S, "--cfg=smpi/bw-factor:0:1"));
  // Polling charges, stated (docs/orrery-run.md "Polling loops").
  EXPECT_TRUE(has(S, "--cfg=smpi/test:0.0001"));
  EXPECT_TRUE(has(S, "--cfg=smpi/grow-injected-times:yes"));
  EXPECT_TRUE(has(S, "--cfg=smpi/wtime:1e-08"));
}

TEST(SmpiConfig, IdealNetworkAndHostCompute) {
  SmpiConfigInputs In = inputs();
  In.Network = NetworkMode::Ideal;
  In.HostCompute = true;
  auto S = smpiSettings(In);
  for (const char *F :
       {"--cfg=smpi/bw-factor:0:1", "--cfg=smpi/lat-factor:0:1",
        "--cfg=network/crosstraffic:0", "--cfg=network/TCP-gamma:0",
        "--cfg=smpi/host-speed:2000000000f"})
    EXPECT_TRUE(has(S, F)) << F;
  EXPECT_FALSE(has(S, "--cfg=smpi/simulate-computation:no"));
}

TEST(SmpiConfig, TheRuntimeSetsItsOwnFactors) {
  SmpiConfigInputs In = inputs();
  In.Network = NetworkMode::Ideal;
  In.RuntimeSetsFactors = true;
  auto S = smpiSettings(In);
  EXPECT_FALSE(has(S, "--cfg=smpi/bw-factor:0:1"));
  EXPECT_FALSE(has(S, "--cfg=smpi/lat-factor:0:1"));
  EXPECT_TRUE(has(S, "--cfg=network/crosstraffic:0"));
  EXPECT_TRUE(has(S, "--cfg=network/TCP-gamma:0"));
}

TEST(SmpiConfig, ExtrasComeLastAndMayReplaceTheSelector) {
  SmpiConfigInputs In = inputs();
  In.Extra = {"smpi/coll-selector:mpich", "smpi/wtime:0"};
  auto S = smpiSettings(In);
  EXPECT_EQ(S[S.size() - 2], "--cfg=smpi/coll-selector:mpich");
  EXPECT_EQ(S.back(), "--cfg=smpi/wtime:0");
  // The user's value comes after the stated default, so SimGrid keeps it.
  auto Default = std::find(S.begin(), S.end(), "--cfg=smpi/wtime:1e-08");
  EXPECT_LT(Default - S.begin(), static_cast<long>(S.size()) - 1);
  EXPECT_FALSE(has(S, "--cfg=smpi/allreduce:rdb"));
}

TEST(SmpiConfig, OtherSelectorsPassThrough) {
  SmpiConfigInputs In = inputs();
  In.CollectiveSelector = "mvapich2";
  auto S = smpiSettings(In);
  EXPECT_TRUE(has(S, "--cfg=smpi/coll-selector:mvapich2"));
  EXPECT_FALSE(has(S, "--cfg=smpi/allreduce:rdb"));
}

} // namespace
