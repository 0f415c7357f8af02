//===- MessagesTest.cpp - Matching receives to posted sends ---------------===//

#include "Messages.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace orrery::sim;

namespace {

SentMessage message(int Src, int Dst, double Bytes, double Start) {
  SentMessage M;
  M.Src = Src;
  M.Dst = Dst;
  M.Bytes = Bytes;
  M.Start = Start;
  return M;
}

} // namespace

TEST(Messages, OldestFromTheSourceFirst) {
  postMessage(message(1, 100, 8, 1.0));
  postMessage(message(2, 100, 8, 2.0));
  postMessage(message(1, 100, 8, 3.0));
  std::optional<SentMessage> A = matchMessage(1, 100, 8);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Start, 1.0);
  std::optional<SentMessage> B = matchMessage(1, 100, 8);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Start, 3.0);
  EXPECT_FALSE(matchMessage(1, 100, 8));
  // Any source: the oldest left, from rank 2.
  std::optional<SentMessage> C = matchMessage(-1, 100, 8);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Src, 2);
  EXPECT_FALSE(matchMessage(-1, 100, 8));
}

TEST(Messages, AReceiveTakesAMessageThatFitsItsBuffer) {
  postMessage(message(3, 101, 1024, 1.0));
  EXPECT_FALSE(matchMessage(3, 101, 512));  // larger than the buffer
  EXPECT_FALSE(matchMessage(3, 102, 4096)); // another destination
  std::optional<SentMessage> M = matchMessage(3, 101, 4096);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Bytes, 1024);
}

TEST(Messages, RoutesWithoutHostsHaveNoBound) {
  RouteFigures R = routeOf(nullptr, nullptr, 1024);
  EXPECT_EQ(R.Latency, 0);
  EXPECT_TRUE(std::isinf(R.Bandwidth));
}
