//===- ProcessorSharingTest.cpp - Jobs sharing one processor equally ------===//

#include "orrery/models/ProcessorSharing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

using namespace orrery::models;

namespace {

std::vector<SharedJob> jobs(std::vector<double> Works) {
  std::vector<SharedJob> J;
  for (std::size_t I = 0; I < Works.size(); ++I)
    J.push_back({Works[I], 0, I});
  return J;
}

/// Job \p Tag's fields, wherever a sort moved it.
const SharedJob &tagged(const std::vector<SharedJob> &J, std::size_t Tag) {
  return *std::find_if(J.begin(), J.end(),
                       [&](const SharedJob &X) { return X.Tag == Tag; });
}

double totalWork(const std::vector<SharedJob> &J) {
  return std::accumulate(
      J.begin(), J.end(), 0.0,
      [](double S, const SharedJob &X) { return S + X.Work; });
}

} // namespace

TEST(ProcessorSharing, AloneEndsAfterItsWork) {
  auto J = jobs({2e-6});
  projectSharedEnds(J, 1.0);
  EXPECT_DOUBLE_EQ(J[0].End, 1.0 + 2e-6);
  advanceShared(J, 1.0, 1.0 + 0.5e-6);
  EXPECT_NEAR(J[0].Work, 1.5e-6, 1e-15); // 1 + 0.5e-6 is not exact
}

TEST(ProcessorSharing, EndsByLeastWorkFirst) {
  // 1, 2 and 3 units from t = 10: the first ends when each did 1 (3 units
  // of time), the second after 1 more each of two (2 more), the last alone.
  auto J = jobs({3, 1, 2});
  projectSharedEnds(J, 10);
  EXPECT_DOUBLE_EQ(tagged(J, 1).End, 13);
  EXPECT_DOUBLE_EQ(tagged(J, 2).End, 15);
  EXPECT_DOUBLE_EQ(tagged(J, 0).End, 16);
}

TEST(ProcessorSharing, EqualJobsEndTogether) {
  auto J = jobs({4, 4, 4, 4});
  projectSharedEnds(J, 0);
  for (const SharedJob &X : J)
    EXPECT_DOUBLE_EQ(X.End, 16);
}

TEST(ProcessorSharing, AdvanceGivesEachRunningJobItsShare) {
  auto J = jobs({1, 2, 3});
  projectSharedEnds(J, 0); // ends 3, 5, 6
  advanceShared(J, 0, 4);
  // 0-3: three share, each does 1; 3-4: two share, each does 0.5.
  EXPECT_DOUBLE_EQ(tagged(J, 0).Work, 0);
  EXPECT_DOUBLE_EQ(tagged(J, 1).Work, 0.5);
  EXPECT_DOUBLE_EQ(tagged(J, 2).Work, 1.5);
  // Projected again from there, the ends are the ones projected before.
  std::vector<SharedJob> Left;
  for (const SharedJob &X : J)
    if (X.Work > 0)
      Left.push_back(X);
  projectSharedEnds(Left, 4);
  EXPECT_DOUBLE_EQ(tagged(Left, 1).End, 5);
  EXPECT_DOUBLE_EQ(tagged(Left, 2).End, 6);
}

TEST(ProcessorSharing, AJobJoiningSlowsTheOthers) {
  // A (2 units) alone from 0; at 1, B (1 unit) joins: A has 1 left, and
  // both end at 3 (as test/e2e/sim-streams.test derives for two kernels).
  auto J = jobs({2});
  projectSharedEnds(J, 0);
  advanceShared(J, 0, 1);
  ASSERT_DOUBLE_EQ(J[0].Work, 1);
  J.push_back({1, 0, 1});
  projectSharedEnds(J, 1);
  EXPECT_DOUBLE_EQ(tagged(J, 0).End, 3);
  EXPECT_DOUBLE_EQ(tagged(J, 1).End, 3);
}

TEST(ProcessorSharing, NothingChangesWithoutTimePassing) {
  auto J = jobs({1, 2});
  projectSharedEnds(J, 5);
  auto Before = J;
  advanceShared(J, 5, 5);
  advanceShared(J, 5, 4);
  for (std::size_t I = 0; I < J.size(); ++I) {
    EXPECT_EQ(J[I].Work, Before[I].Work);
    EXPECT_EQ(J[I].End, Before[I].End);
  }
}

TEST(ProcessorSharing, RandomJobsConserveWorkAndEnds) {
  std::mt19937 Gen(7);
  std::uniform_real_distribution<double> Work(1e-7, 1e-3), Frac(0, 1);
  for (int Round = 0; Round < 200; ++Round) {
    std::size_t N = 1 + Gen() % 6;
    std::vector<double> W(N);
    for (double &X : W)
      X = Work(Gen);
    auto J = jobs(W);
    double Total = totalWork(J);
    projectSharedEnds(J, 0);
    auto Projected = J;
    // The processor never idles while a job runs: the last ends after the
    // total work.
    double Last = 0;
    for (const SharedJob &X : J)
      Last = std::max(Last, X.End);
    EXPECT_NEAR(Last, Total, 1e-12 * Total);
    // Advancing in two steps leaves what advancing at once leaves, and the
    // work done is the time passed (until all end).
    double Mid = Frac(Gen) * Total * 1.2, To = Mid + Frac(Gen) * Total * 0.5;
    auto Once = J;
    advanceShared(J, 0, Mid);
    advanceShared(J, Mid, To);
    advanceShared(Once, 0, To);
    for (std::size_t T = 0; T < N; ++T) {
      EXPECT_NEAR(tagged(J, T).Work, tagged(Once, T).Work, 1e-12 * Total);
      // Ends are not moved by advancing.
      EXPECT_EQ(tagged(J, T).End, tagged(Projected, T).End);
    }
    EXPECT_NEAR(Total - totalWork(J), std::min(To, Total), 1e-12 * Total);
  }
}
