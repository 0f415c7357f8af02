#include "orrery/passes/SymExpr.h"

#include "gtest/gtest.h"

using namespace orrery;

TEST(SymExprTest, FoldsConstantsAndIdentities) {
  SymExpr N = SymExpr::sym("n");
  EXPECT_EQ((SymExpr(2.0) * 3.0).str(), "6");
  EXPECT_EQ((N * 1.0).str(), "n");
  EXPECT_EQ((N + 0.0).str(), "n");
  EXPECT_EQ((N * 0.0).str(), "0");
  EXPECT_EQ((N - N).str(), "0");
  EXPECT_EQ(SymExpr::ceilDiv(N, 1.0).str(), "n");
}

TEST(SymExprTest, EvaluatesWithBindings) {
  SymExpr E = SymExpr::max(0.0, SymExpr::min(SymExpr::sym("n") - 1.0,
                                             SymExpr::sym("gridDim.x") *
                                                 SymExpr::sym("blockDim.x")));
  EXPECT_EQ(*E.eval({{"n", 1000}, {"gridDim.x", 4}, {"blockDim.x", 256}}), 999);
  EXPECT_EQ(*E.eval({{"n", 5000}, {"gridDim.x", 4}, {"blockDim.x", 256}}),
            1024);
  EXPECT_FALSE(E.eval({{"n", 1}}).has_value());
  EXPECT_EQ(*SymExpr::ceilDiv(SymExpr::sym("n"), 256.0).eval({{"n", 257}}), 2);
  EXPECT_EQ(*SymExpr::floorDiv(SymExpr::sym("n"), 16.0).eval({{"n", 31}}), 1);
}

TEST(SymExprTest, Log2StepsCountsHalvings) {
  // for (s = a; s > 0; s >>= 1) runs floor(log2(a)) + 1 times.
  SymExpr T = SymExpr::log2Steps(SymExpr::sym("a"));
  EXPECT_EQ(T.str(), "orrery_halving_trips(a)");
  EXPECT_EQ(*T.eval({{"a", 128}}), 8);
  EXPECT_EQ(*T.eval({{"a", 255}}), 8);
  EXPECT_EQ(*T.eval({{"a", 1}}), 1);
  EXPECT_EQ(SymExpr::log2Steps(4.0).str(), "3");
}

TEST(SymExprTest, L1WavefrontsByStride) {
  // 32 lanes of 4-byte words: coalesced in one wavefront; power-of-two
  // strides conflict in the banks (2, 4, ..., 32 ways); odd strides do not,
  // but spread over lines the tag stage takes 4 a clock after the first.
  auto Wf = [](double Stride, double Elem) {
    return *SymExpr::l1Wavefronts(Stride, Elem).constant();
  };
  EXPECT_EQ(Wf(0, 4), 1);     // one word for the warp
  EXPECT_EQ(Wf(1, 4), 1);     // 128 B, one line
  EXPECT_EQ(Wf(2, 4), 2);     // 2-way conflicts
  EXPECT_EQ(Wf(3, 4), 1.5);   // 3 lines: (3 + 3) / 4
  EXPECT_EQ(Wf(32, 4), 32);   // every lane in bank 0
  EXPECT_EQ(Wf(33, 4), 8.75); // 32 lines, no conflict
  EXPECT_EQ(Wf(-2, 4), 2);    // a mirror image
  EXPECT_EQ(Wf(1, 8), 2);     // 256 B: two words per bank
  EXPECT_EQ(Wf(0, 8), 2);     // half warps, though the lanes share a word
  EXPECT_EQ(Wf(1, 16), 4);    // float4: four words per bank
  EXPECT_EQ(Wf(0.5, 4), 1);   // lane pairs share words
  SymExpr S = SymExpr::l1Wavefronts(SymExpr::sym("s"), 4.0);
  EXPECT_EQ(S.str(), "orrery_l1_wavefronts(s, 4)");
  EXPECT_EQ(*S.eval({{"s", 8}}), 8);
}

TEST(SymExprTest, NormalizeMergesEqualTerms) {
  SymExpr T = SymExpr::ceilDiv(SymExpr::sym("n"), SymExpr::sym("s"));
  SymExpr E = ((SymExpr(2.0) + T) + T) + T * 3.0;
  EXPECT_EQ(E.normalize().str(), "(5 * orrery_ceil_div(n, s) + 2)");
  SymExpr D = (SymExpr::sym("a") - SymExpr::sym("b")) + SymExpr::sym("b");
  EXPECT_EQ(D.normalize().str(), "a");
}

TEST(SymExprTest, SubstituteAndSymbols) {
  SymExpr E = SymExpr::sym("threadIdx.x") +
              SymExpr::sym("blockIdx.x") * SymExpr::sym("blockDim.x");
  std::set<std::string> S;
  E.symbols(S);
  EXPECT_EQ(S.size(), 3u);
  SymExpr Z = E.substitute({{"threadIdx.x", 0.0}, {"blockIdx.x", 0.0}});
  EXPECT_EQ(Z.str(), "0");
}

TEST(SymExprTest, ParsesPragmaExpressions) {
  std::optional<SymExpr> E = parseSymExpr("nnz / rows + 2 * blockDim.x");
  ASSERT_TRUE(E.has_value());
  EXPECT_EQ(*E->eval({{"nnz", 100}, {"rows", 10}, {"blockDim.x", 32}}), 74);
  EXPECT_EQ(*parseSymExpr("(n - 1) * 0.5")->eval({{"n", 5}}), 2);
  EXPECT_FALSE(parseSymExpr("n **").has_value());
  EXPECT_FALSE(parseSymExpr("(n").has_value());
  EXPECT_FALSE(parseSymExpr("").has_value());
}
