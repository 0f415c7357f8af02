//===- BoardTest.cpp - bulletin-board sequence lock and checksum ----------===//
#include "board.h"

#include <cstring>
#include <gtest/gtest.h>
#include <random>

using namespace ramc;

static Board freshBoard() {
  Board B;
  std::memset(&B, 0, sizeof(B));
  boardBeginUpdate(B);
  boardEndUpdate(B);
  return B;
}

TEST(Board, FreshBoardIsValidAndEmpty) {
  Board B = freshBoard();
  EXPECT_TRUE(boardSnapshotValid(B));
  EXPECT_EQ(boardLatest(B), -1);
  EXPECT_EQ(boardFind(B, 5), -1);
  Board Zero;
  std::memset(&Zero, 0, sizeof(Zero));
  EXPECT_FALSE(boardSnapshotValid(Zero)); // never initialized
}

TEST(Board, UpdateInProgressIsInvalid) {
  Board B = freshBoard();
  boardBeginUpdate(B);
  B.Slots[0].Present = 1;
  B.Slots[0].Tag = 9;
  EXPECT_FALSE(boardSnapshotValid(B));
  boardEndUpdate(B);
  EXPECT_TRUE(boardSnapshotValid(B));
  EXPECT_EQ(boardFind(B, 9), 0);
}

TEST(Board, LatestPostingWins) {
  Board B = freshBoard();
  boardBeginUpdate(B);
  B.Slots[3] = BoardSlot{1, 30, 0, 0, 8, 0, 0, 2};
  B.Slots[1] = BoardSlot{1, 10, 0, 0, 8, 0, 0, 5};
  B.Slots[7] = BoardSlot{1, 70, 0, 0, 8, 0, 0, 4};
  boardEndUpdate(B);
  EXPECT_EQ(boardLatest(B), 1);
  EXPECT_EQ(boardFind(B, 70), 7);
}

// A reader copying the board while the owner updates it sees a mix of two
// versions; the checksum must reject every such torn copy.
TEST(Board, TornSnapshotsAreRejected) {
  std::mt19937_64 Rng(42);
  Board Old = freshBoard();
  for (int Round = 0; Round < 2000; ++Round) {
    Board New = Old;
    boardBeginUpdate(New);
    unsigned S = Rng() % kBoardSlots;
    New.Slots[S] =
        BoardSlot{1, Rng(), Rng(), Rng(), Rng(), Rng(), Rng(), ++New.Serial};
    New.State = Rng() & 1;
    boardEndUpdate(New);
    ASSERT_TRUE(boardSnapshotValid(New));
    // Mix words of Old and New at random.
    uint64_t A[sizeof(Board) / 8], B2[sizeof(Board) / 8], M[sizeof(Board) / 8];
    std::memcpy(A, &Old, sizeof(Board));
    std::memcpy(B2, &New, sizeof(Board));
    bool Mixed = false, FromOld = false, FromNew = false;
    for (size_t I = 0; I < sizeof(Board) / 8; ++I) {
      bool PickNew = Rng() & 1;
      M[I] = PickNew ? B2[I] : A[I];
      if (A[I] != B2[I]) {
        FromNew |= PickNew;
        FromOld |= !PickNew;
      }
    }
    Mixed = FromNew && FromOld;
    Board Torn;
    std::memcpy(&Torn, M, sizeof(Board));
    if (Mixed)
      EXPECT_FALSE(boardSnapshotValid(Torn)) << "round " << Round;
    Old = New;
  }
}

TEST(Board, LayoutKeepsRegionsApart) {
  ControlLayout L(1024);
  EXPECT_GE(L.StatusOff, sizeof(Board));
  EXPECT_GE(L.AckOff, L.statusOffset(1023) + sizeof(StatusWord));
  EXPECT_GE(L.ScratchOff, L.AckSrcOff + 16);
  EXPECT_GE(L.ScratchSlot, sizeof(Board));
  EXPECT_LE(L.ScratchOff + L.ScratchSlot * L.ScratchSlots, L.Total);
  EXPECT_EQ(L.Total % 4096, 0u);
}
