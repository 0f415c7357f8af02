//===- board.cpp - the bulletin board and control-region layout -----------===//
#include "board.h"

#include <atomic>
#include <cstring>

namespace ramc {

static uint64_t mix(uint64_t H, uint64_t V) {
  H ^= V + 0x9e3779b97f4a7c15ull + (H << 6) + (H >> 2);
  H *= 0xff51afd7ed558ccdull;
  return H ^ (H >> 33);
}

uint64_t boardHash(const Board &B) {
  uint64_t Words[sizeof(Board) / sizeof(uint64_t)];
  std::memcpy(Words, &B, sizeof(Board));
  Words[offsetof(Board, Check) / sizeof(uint64_t)] = 0;
  uint64_t H = 0x52414d43ull; // "RAMC"
  for (uint64_t W : Words)
    H = mix(H, W);
  return H;
}

void boardBeginUpdate(Board &B) {
  __atomic_store_n(&B.Seq, B.Seq | 1, __ATOMIC_RELEASE);
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

void boardEndUpdate(Board &B) {
  uint64_t Next = (B.Seq | 1) + 1;
  Board Tmp;
  std::memcpy(&Tmp, &B, sizeof(Board));
  Tmp.Seq = Next; // the hash covers the final sequence number
  __atomic_store_n(&B.Check, boardHash(Tmp), __ATOMIC_RELAXED);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  __atomic_store_n(&B.Seq, Next, __ATOMIC_RELEASE);
}

bool boardSnapshotValid(const Board &S) {
  return (S.Seq & 1) == 0 && S.Seq != 0 && boardHash(S) == S.Check;
}

int boardFind(const Board &B, uint64_t Tag) {
  for (unsigned I = 0; I < kBoardSlots; ++I)
    if (B.Slots[I].Present && B.Slots[I].Tag == Tag)
      return static_cast<int>(I);
  return -1;
}

int boardLatest(const Board &B) {
  int Best = -1;
  for (unsigned I = 0; I < kBoardSlots; ++I)
    if (B.Slots[I].Present &&
        (Best < 0 || B.Slots[I].PostSerial > B.Slots[Best].PostSerial))
      Best = static_cast<int>(I);
  return Best;
}

static size_t alignUp(size_t V, size_t A) { return (V + A - 1) / A * A; }

ControlLayout::ControlLayout(size_t MaxWin, size_t Slots)
    : MaxWindows(MaxWin), ScratchSlots(Slots) {
  StatusOff = alignUp(sizeof(Board), 64);
  AckOff = alignUp(StatusOff + MaxWindows * sizeof(StatusWord), 64);
  AckSrcOff = AckOff + kAckWords * sizeof(uint64_t);
  ScratchSlot = alignUp(sizeof(Board), 64);
  ScratchOff = AckSrcOff + 64;
  Total = alignUp(ScratchOff + ScratchSlot * ScratchSlots, 4096);
}

} // namespace ramc
