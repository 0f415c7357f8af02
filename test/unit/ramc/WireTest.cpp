//===- WireTest.cpp - CQ data, operation contexts, handles ----------------===//
#include "wire.h"

#include <gtest/gtest.h>

using namespace ramc;

TEST(Wire, WindowOpRoundTrips) {
  uint32_t Chan = makeChannel(12345, 0xab);
  uint64_t D = encodeWindowOp(Chan);
  EXPECT_LT(D, 1ull << 32); // fits 4-byte remote CQ data
  EXPECT_EQ(dataKind(D), DataKind::WindowOp);
  EXPECT_EQ(dataPayload(D), Chan);
  EXPECT_EQ(channelIndex(dataPayload(D)), 12345u);
  EXPECT_NE(makeChannel(12345, 0xac), Chan); // a reused index differs
}

TEST(Wire, RunOfWindowOpsCarriesItsCount) {
  uint32_t Chan = makeChannel(kRunWindows - 1, 0xab);
  for (uint32_t Count : {2u, 17u, kMaxRun}) {
    uint64_t D = encodeWindowOps(Chan, Count);
    EXPECT_LT(D, 1ull << 32);
    EXPECT_EQ(dataKind(D), DataKind::WindowOps);
    EXPECT_EQ(runChannel(dataPayload(D)), Chan);
    EXPECT_EQ(runCount(dataPayload(D)), Count);
  }
  // A run of one is an ordinary window operation.
  EXPECT_EQ(encodeWindowOps(Chan, 1), encodeWindowOp(Chan));
  // The generation survives: a run for a reused index is told apart.
  EXPECT_NE(runChannel(dataPayload(encodeWindowOps(Chan, 5))),
            makeChannel(kRunWindows - 1, 0xac));
}

TEST(Wire, AttachAckCarriesRank) {
  uint64_t D = encodeAttachAck(19599);
  EXPECT_EQ(dataKind(D), DataKind::AttachAck);
  EXPECT_EQ(dataPayload(D), 19599u);
}

TEST(Wire, OpContextRoundTrips) {
  void *Op = encodeOp(OpKind::Get, 19599, 0xdeadbeef);
  EXPECT_NE(Op, nullptr);
  EXPECT_EQ(opKind(Op), OpKind::Get);
  EXPECT_EQ(opPeer(Op), 19599);
  EXPECT_EQ(opSeq(Op), 0xdeadbeefu);
  EXPECT_STREQ(opName(OpKind::Put), "put");
}

TEST(Wire, HandlesAreTyped) {
  uint64_t T = makeHandle(HandleKind::Target, 7, 3);
  uint64_t I = makeHandle(HandleKind::Initiator, 7, 3);
  EXPECT_TRUE(handleIs(T, HandleKind::Target));
  EXPECT_FALSE(handleIs(T, HandleKind::Initiator));
  EXPECT_FALSE(handleIs(I, HandleKind::Target));
  EXPECT_EQ(handleSlot(T), 7u);
  EXPECT_EQ(handleGen(T), 3u);
  EXPECT_FALSE(handleIs(0, HandleKind::Target));
}
