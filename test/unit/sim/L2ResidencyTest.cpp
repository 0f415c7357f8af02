//===- L2ResidencyTest.cpp - What a GPU's L2 holds between kernels --------===//

#include "gpu/L2Residency.h"

#include <gtest/gtest.h>

using namespace orrery::sim;

namespace {

const void *buffer(int I) { return reinterpret_cast<const void *>(0x1000 * I); }

} // namespace

TEST(L2Residency, NothingBeforeTheFirstLaunch) {
  L2Residency L2;
  EXPECT_DOUBLE_EQ(L2.share({buffer(1)}, 1e6, 40e6), 0);
}

TEST(L2Residency, AlternatingKernelsHitWhenTheyFit) {
  // A = f(B), then B = f(A): 2 x 10 MB in a 40 MB L2, all of it held.
  L2Residency L2;
  L2.touch({buffer(1), buffer(2)}, 20e6, 40e6);
  EXPECT_DOUBLE_EQ(L2.share({buffer(2), buffer(1)}, 20e6, 40e6), 1);
  // The same buffers with a footprint above the capacity: streaming through
  // more than the L2 evicts what it would reuse.
  EXPECT_DOUBLE_EQ(L2.share({buffer(1), buffer(2)}, 50e6, 40e6), 0);
}

TEST(L2Residency, LeastRecentlyUsedBytesAreEvicted) {
  L2Residency L2;
  L2.touch({buffer(1)}, 30e6, 40e6); // oldest: 30 MB of buffer 1
  L2.touch({buffer(2)}, 20e6, 40e6); // newest: 20 MB of buffer 2
  // 40 MB hold buffer 2's 20 MB and the last 20 of buffer 1's 30 MB: a
  // launch reading 30 MB of buffer 1 finds two thirds of it.
  EXPECT_DOUBLE_EQ(L2.share({buffer(1)}, 30e6, 40e6), 20.0 / 30);
  // Half of a launch's footprint on a buffer never touched: half a hit.
  EXPECT_DOUBLE_EQ(L2.share({buffer(2), buffer(3)}, 20e6, 40e6), 0.5);
  // Touching buffer 1 again makes it the newest; buffer 2 still fits.
  L2.touch({buffer(1)}, 30e6, 40e6);
  EXPECT_DOUBLE_EQ(L2.share({buffer(1)}, 30e6, 40e6), 1);
  EXPECT_DOUBLE_EQ(L2.share({buffer(2)}, 20e6, 40e6), 0.5);
}
