//===- ConsumeCounterTest.cpp - consume semantics -------------------------===//
#include "consume_counter.h"

#include <gtest/gtest.h>

using ramc::ConsumeCounter;

TEST(ConsumeCounter, TestConsumesOnlyOnSuccess) {
  ConsumeCounter C;
  C.add(3);
  EXPECT_FALSE(C.test(4)); // not enough: nothing is consumed
  EXPECT_EQ(C.available(), 3u);
  EXPECT_TRUE(C.test(2));
  EXPECT_EQ(C.available(), 1u);
  EXPECT_FALSE(C.test(2));
  C.add(1);
  EXPECT_TRUE(C.test(2));
  EXPECT_EQ(C.consumed(), 4u);
  EXPECT_EQ(C.arrived(), 4u);
}

TEST(ConsumeCounter, ObserveIsMonotonic) {
  ConsumeCounter C;
  C.observe(5);
  C.observe(3); // a lagging counter read never loses arrivals
  EXPECT_EQ(C.arrived(), 5u);
  EXPECT_TRUE(C.test(5));
  EXPECT_TRUE(C.test(0));
  EXPECT_FALSE(C.test(1));
}

TEST(ConsumeCounter, NeverDoubleCounts) {
  ConsumeCounter C;
  uint64_t Consumed = 0;
  for (int I = 0; I < 1000; ++I) {
    C.observe(static_cast<uint64_t>(I / 3));
    while (C.test(2))
      Consumed += 2;
  }
  EXPECT_EQ(Consumed + C.available(), C.arrived());
  EXPECT_LT(C.available(), 2u);
}
