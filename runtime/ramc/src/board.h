//===- board.h - the bulletin board and control-region layout ---*- C++ -*-===//
//
// Each process exposes one registered control region: its bulletin board
// (several posting slots under one sequence lock and checksum, so that a
// remote read of the whole board is validated as one atomic snapshot), the
// status words of its windows, the attach-acknowledgement words, and a
// scratch area where its own remote reads land.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_BOARD_H
#define RAMC_SRC_BOARD_H

#include <cstddef>
#include <cstdint>

namespace ramc {

constexpr unsigned kBoardSlots = 16;
/// Words in the attach-acknowledgement area (initiator rank % kAckWords).
constexpr unsigned kAckWords = 64;

struct BoardSlot {
  uint64_t Present; // 1 when the slot holds a posting
  uint64_t Tag;
  uint64_t Key;        // window MR key
  uint64_t Addr;       // remote address of window offset 0
  uint64_t Len;        // window length in bytes
  uint64_t Chan;       // channel id (index and generation)
  uint64_t StatusOff;  // offset of the status word in the control region
  uint64_t PostSerial; // increases with every posting (latest = largest)
};

struct Board {
  uint64_t Seq;   // odd while the owner updates the board
  uint64_t Check; // hash of everything else, so torn reads are detected
  uint64_t State; // RAMC_BB_STATUS_*
  uint64_t Serial;
  uint64_t Reserved[4];
  BoardSlot Slots[kBoardSlots];
};

/// A window's status word pair: the status value and the channel it belongs
/// to (so a reader notices a destroyed or replaced window).
struct StatusWord {
  uint64_t Value;
  uint64_t Chan;
};

constexpr uint64_t kNoChannel = ~0ull;

/// Hash of the board with Check taken as zero.
uint64_t boardHash(const Board &B);

/// Owner side: bracket every update with begin/end (sequence lock).
void boardBeginUpdate(Board &B);
void boardEndUpdate(Board &B);

/// Reader side: true when Snapshot is a consistent copy.
bool boardSnapshotValid(const Board &Snapshot);

/// The slot holding Tag in a valid snapshot, or -1.
int boardFind(const Board &B, uint64_t Tag);
/// The most recently posted slot, or -1.
int boardLatest(const Board &B);

/// Layout of the control region.
struct ControlLayout {
  size_t MaxWindows;
  size_t BoardOff = 0;
  size_t StatusOff;
  size_t AckOff;
  size_t AckSrcOff;
  size_t ScratchOff;
  size_t ScratchSlot;
  size_t ScratchSlots;
  size_t Total;
  explicit ControlLayout(size_t MaxWindows, size_t ScratchSlots = 16);
  size_t statusOffset(uint32_t Index) const {
    return StatusOff + Index * sizeof(StatusWord);
  }
};

} // namespace ramc

#endif
