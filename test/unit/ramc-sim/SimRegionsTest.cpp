//===- SimRegionsTest.cpp - the simulated NIC's region checks -------------===//
#include "sim_regions.h"

#include <gtest/gtest.h>

using namespace ramc::sim;

TEST(SimRegions, KeysAreFreshAndChecked) {
  RegionTable T;
  char A[64], B[32];
  SimRegion &RA = T.add(A, sizeof(A), /*Counted=*/true, /*Device=*/false);
  uint64_t KA = RA.Key;
  SimRegion &RB = T.add(B, sizeof(B), false, true);
  EXPECT_NE(KA, RB.Key);
  EXPECT_TRUE(RB.Device);
  EXPECT_EQ(T.size(), 2u);

  std::string Why;
  auto Addr = reinterpret_cast<uintptr_t>(A);
  EXPECT_EQ(T.check(KA, Addr, 64, Why), &RA);
  EXPECT_EQ(T.check(KA, Addr + 60, 4, Why), &RA);
  EXPECT_EQ(T.check(KA, Addr + 64, 0, Why), &RA);
  EXPECT_EQ(T.check(KA, Addr + 60, 5, Why), nullptr);
  EXPECT_NE(Why.find("outside the registered region"), std::string::npos);
  EXPECT_EQ(T.check(KA, Addr - 1, 1, Why), nullptr);
  EXPECT_EQ(T.check(KA, Addr + 65, 0, Why), nullptr);
  // Lengths that would wrap around.
  EXPECT_EQ(T.check(KA, Addr + 8, ~size_t(0), Why), nullptr);
}

TEST(SimRegions, ReleasedKeysStayInvalid) {
  RegionTable T;
  char A[16];
  uint64_t K = T.add(A, sizeof(A), false, false).Key;
  EXPECT_TRUE(T.remove(K));
  EXPECT_FALSE(T.remove(K));
  std::string Why;
  EXPECT_EQ(T.check(K, reinterpret_cast<uintptr_t>(A), 8, Why), nullptr);
  EXPECT_NE(Why.find("no memory registered under key"), std::string::npos);
  // The same buffer registered again gets another key: the stale one still
  // fails (a put to a destroyed window never lands in its successor).
  uint64_t K2 = T.add(A, sizeof(A), false, false).Key;
  EXPECT_NE(K, K2);
  EXPECT_EQ(T.find(K), nullptr);
  EXPECT_NE(T.find(K2), nullptr);
}

TEST(SimRegions, CountsArrivals) {
  RegionTable T;
  char A[8];
  SimRegion &R = T.add(A, sizeof(A), true, false);
  EXPECT_EQ(R.Count, 0u);
  ++T.find(R.Key)->Count;
  EXPECT_EQ(R.Count, 1u);
}
