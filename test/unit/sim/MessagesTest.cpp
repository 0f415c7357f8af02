//===- MessagesTest.cpp - Matching receives to posted sends ---------------===//

#include "mpi/Messages.h"

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

TEST(Messages, TagsMatchAsMpiMatchesThem) {
  // Two messages from one source with different tags; the receiver takes
  // tag 2 first, then tag 1, as MPI allows.
  SentMessage One = message(4, 103, 64, 1.0), Two = message(4, 103, 64, 2.0);
  One.Tag = 1;
  Two.Tag = 2;
  postMessage(One);
  postMessage(Two);
  std::optional<SentMessage> A = matchMessage(MatchKey{4, 2, AnyComm}, 103, 64);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Tag, 2);
  EXPECT_EQ(A->Start, 2.0);
  EXPECT_FALSE(matchMessage(MatchKey{4, 2, AnyComm}, 103, 64));
  std::optional<SentMessage> B = matchMessage(MatchKey{4, 1, AnyComm}, 103, 64);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Start, 1.0);
  // MPI_ANY_TAG takes the oldest; a send whose tag is unknown matches any.
  One.Tag = 7;
  Two.Tag = AnyTag;
  postMessage(One);
  postMessage(Two);
  EXPECT_EQ(matchMessage(MatchKey{4, AnyTag, AnyComm}, 103, 64)->Tag, 7);
  EXPECT_EQ(matchMessage(MatchKey{4, 9, AnyComm}, 103, 64)->Start, 2.0);
}

TEST(Messages, CommunicatorsKeepTheirMessagesApart) {
  std::uint64_t World = communicatorKey({0, 1, 2, 3});
  std::uint64_t Half = communicatorKey({0, 1});
  EXPECT_NE(World, Half);
  EXPECT_NE(World, AnyComm);
  EXPECT_EQ(World, communicatorKey({0, 1, 2, 3})); // the same on every rank
  SentMessage OnWorld = message(0, 104, 8, 1.0),
              OnHalf = message(0, 104, 8, 2.0);
  OnWorld.Comm = World;
  OnHalf.Comm = Half;
  postMessage(OnWorld);
  postMessage(OnHalf);
  // A receive on the half communicator skips the older world message.
  std::optional<SentMessage> M =
      matchMessage(MatchKey{0, AnyTag, Half}, 104, 8);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Start, 2.0);
  EXPECT_FALSE(matchMessage(MatchKey{0, AnyTag, Half}, 104, 8));
  // MPI_ANY_SOURCE on the world communicator takes the world message.
  M = matchMessage(MatchKey{-1, AnyTag, World}, 104, 8);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Start, 1.0);
}
