#include "kernels/ThreadRanges.h"

#include "gtest/gtest.h"

#include <functional>

using namespace orrery;

namespace {
SymExpr S(const char *Name) { return SymExpr::sym(Name); }
SymExpr gid() { return S("blockIdx.x") * S("blockDim.x") + S("threadIdx.x"); }

/// Threads of a 1-D launch of G blocks of B for which Keep(gid, tid, bid).
double bruteForce(int G, int B,
                  const std::function<bool(int, int, int)> &Keep) {
  double N = 0;
  for (int Bl = 0; Bl < G; ++Bl)
    for (int T = 0; T < B; ++T)
      N += Keep(Bl * B + T, T, Bl);
  return N;
}

double countAt(const ThreadSet &TS, int G, int B, double N) {
  return *TS.count().eval({{"gridDim.x", double(G)},
                           {"blockDim.x", double(B)},
                           {"gridDim.y", 1},
                           {"blockDim.y", 1},
                           {"gridDim.z", 1},
                           {"blockDim.z", 1},
                           {"n", N}});
}
} // namespace

TEST(ThreadRangesTest, TwoSidedBoundsWithOffsetAndStrideAreExact) {
  // 1 <= 2*gid + 1 < n - 1 and 3*gid + 2 != n - 4, against enumeration.
  ThreadSet TS;
  SymExpr Ix = SymExpr(2.0) * gid() + 1.0;
  ASSERT_TRUE(TS.constrain(Ix, Rel::GE, 1.0));
  ASSERT_TRUE(TS.constrain(Ix, Rel::LT, S("n") - 1.0));
  ASSERT_TRUE(TS.constrain(gid(), Rel::NE, S("n") - 300.0));
  for (int G : {1, 3, 7})
    for (int B : {32, 100})
      for (int N : {0, 5, 64, 333, 1000}) {
        double Want = bruteForce(G, B, [&](int I, int, int) {
          int X = 2 * I + 1;
          return X >= 1 && X < N - 1 && I != N - 300;
        });
        EXPECT_EQ(countAt(TS, G, B, N), Want)
            << "G=" << G << " B=" << B << " n=" << N;
      }
}

TEST(ThreadRangesTest, NegativeCoefficientAndBlockAndLocalBounds) {
  ThreadSet Down, Local, Block;
  // n - gid > 10 <=> gid < n - 10.
  ASSERT_TRUE(Down.constrain(S("n") - gid(), Rel::GT, 10.0));
  ASSERT_TRUE(Local.constrain(S("threadIdx.x"), Rel::LE, 20.0));
  ASSERT_TRUE(Block.constrain(S("blockIdx.x"), Rel::EQ, 2.0));
  for (int N : {0, 50, 700}) {
    EXPECT_EQ(countAt(Down, 4, 128, N),
              bruteForce(4, 128, [&](int I, int, int) { return N - I > 10; }));
  }
  EXPECT_EQ(countAt(Local, 4, 128, 0), 4 * 21);
  EXPECT_EQ(countAt(Local, 4, 16, 0), 4 * 16);
  EXPECT_EQ(countAt(Block, 4, 128, 0), 128);
  EXPECT_EQ(countAt(Block, 2, 128, 0), 0);
}

TEST(ThreadRangesTest, RejectsWhatIsNotAThreadBound) {
  ThreadSet TS;
  EXPECT_FALSE(TS.constrain(S("n"), Rel::LT, 4.0));
  EXPECT_FALSE(TS.constrain(gid() * gid(), Rel::LT, S("n")));
  EXPECT_FALSE(TS.constrain(gid(), Rel::LT, S("threadIdx.y")));
  // One index of a tile is not a range of the global index.
  EXPECT_FALSE(
      TS.constrain(S("blockIdx.x") * 16.0 + S("threadIdx.x"), Rel::EQ, S("n")));
  EXPECT_TRUE(TS.empty());
}

TEST(ThreadRangesTest, TiledIndexCountsTheBlocksShareOfEachTile) {
  // blockIdx.x * 16 + threadIdx.x < n: n threads when blockDim.x = 16; with
  // 8 threads per block (each covering half a tile), n / 2.
  ThreadSet TS;
  ASSERT_TRUE(
      TS.constrain(S("blockIdx.x") * 16.0 + S("threadIdx.x"), Rel::LT, S("n")));
  EXPECT_EQ(*TS.dimCount(0).eval(
                {{"n", 160}, {"gridDim.x", 100}, {"blockDim.x", 16}}),
            160);
  EXPECT_EQ(*TS.dimCount(0).eval(
                {{"n", 160}, {"gridDim.x", 100}, {"blockDim.x", 8}}),
            80);
}

TEST(ThreadRangesTest, TransposedTileBoundsTheBlocks) {
  // blockIdx.y * 32 + threadIdx.x < h: whole tiles of blocks along y.
  ThreadSet TS;
  ASSERT_TRUE(
      TS.constrain(S("blockIdx.y") * 32.0 + S("threadIdx.x"), Rel::LT, S("h")));
  EXPECT_EQ(*TS.dimCount(1).eval(
                {{"h", 320}, {"gridDim.y", 20}, {"blockDim.y", 8}}),
            10 * 8);
}

TEST(ThreadRangesTest, FractionOfANestedBranch) {
  ThreadSet Outer;
  ASSERT_TRUE(Outer.constrain(gid(), Rel::LT, S("n")));
  ThreadSet Inner = Outer;
  ASSERT_TRUE(Inner.constrain(S("threadIdx.x"), Rel::LT, 32.0));
  // Independent coordinates: 32 of each block's 128.
  EXPECT_EQ(*Outer.fractionIn(Inner).eval({{"blockDim.x", 128}}), 0.25);
}
