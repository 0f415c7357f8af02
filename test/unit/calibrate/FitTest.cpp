//===- FitTest.cpp - Least-squares Hockney fits per size band -------------===//

#include "Fit.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace orrery::calibrate;

namespace {

std::vector<Sample> line(double Latency, double Bandwidth,
                         std::initializer_list<double> Sizes) {
  std::vector<Sample> S;
  for (double N : Sizes)
    S.push_back({N, Latency + N / Bandwidth});
  return S;
}

TEST(Fit, ExactLineIsRecovered) {
  HockneyFit F =
      fitHockney(line(2e-6, 10e9, {1024, 4096, 65536, 1 << 20}), 0.01);
  EXPECT_NEAR(F.Latency, 2e-6, 1e-12);
  EXPECT_NEAR(F.Bandwidth, 10e9, 1e3);
  EXPECT_NEAR(F.Residual, 0, 1e-9);
  EXPECT_EQ(F.Samples, 4u);
  EXPECT_TRUE(F.Problem.empty()) << F.Problem;
}

TEST(Fit, ResidualIsRmsOfRelativeErrors) {
  // Two points fit exactly by any line through them; a third 10 % off the
  // line through the first two: the weighted fit spreads the error, and the
  // residual is the RMS of the three relative errors it leaves.
  std::vector<Sample> S = {{0, 1e-6}, {1e6, 2e-6}, {2e6, 3.3e-6}};
  HockneyFit F = fitHockney(S, 1);
  double Sum = 0;
  for (const Sample &X : S) {
    double R = (F.time(X.Bytes) - X.Seconds) / X.Seconds;
    Sum += R * R;
  }
  EXPECT_NEAR(F.Residual, std::sqrt(Sum / 3), 1e-12);
  EXPECT_GT(F.Residual, 0.01);
  EXPECT_TRUE(F.Problem.empty());
  // The same data against a tight bound is a poor fit.
  HockneyFit Tight = fitHockney(S, 0.001);
  EXPECT_NE(Tight.Problem.find("residual"), std::string::npos) << Tight.Problem;
}

TEST(Fit, FlatOrFallingTimeHasNoBandwidth) {
  HockneyFit F = fitHockney({{1, 2e-6}, {1000, 1e-6}}, 10);
  EXPECT_EQ(F.Bandwidth, 0);
  EXPECT_NE(F.Problem.find("slope <= 0"), std::string::npos) << F.Problem;
}

TEST(Fit, OneSizeIsRefused) {
  HockneyFit F = fitHockney({{64, 1e-6}, {64, 1.1e-6}}, 10);
  EXPECT_NE(F.Problem.find("two or more distinct sizes"), std::string::npos);
}

TEST(Fit, NegativeInterceptIsClamped) {
  // Through (1000, 1 us) and (2000, 3 us): intercept -1 us.
  HockneyFit F = fitHockney({{1000, 1e-6}, {2000, 3e-6}}, 10);
  EXPECT_EQ(F.Latency, 0);
  EXPECT_TRUE(F.LatencyClamped);
  EXPECT_NEAR(F.Bandwidth, 500e6, 1);
}

TEST(Bands, ParseAndSelect) {
  std::vector<Band> B;
  std::string Err;
  ASSERT_TRUE(parseBands("4096,65536", B, Err)) << Err;
  ASSERT_EQ(B.size(), 3u);
  EXPECT_EQ(B[0].str(), "[0, 4096)");
  EXPECT_EQ(B[1].str(), "[4096, 65536)");
  EXPECT_EQ(B[2].str(), "[65536, inf)");
  auto In = inBand({{1, 1}, {4095, 1}, {4096, 1}, {70000, 1}}, B[1]);
  ASSERT_EQ(In.size(), 1u);
  EXPECT_EQ(In[0].Bytes, 4096);
  EXPECT_FALSE(parseBands("4096,1024", B, Err));
  EXPECT_EQ(Err, "--bands: '1024' is not a byte count above the previous "
                 "boundary");
  EXPECT_FALSE(parseBands("4k", B, Err));
}

} // namespace
