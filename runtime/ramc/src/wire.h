//===- wire.h - encodings that cross the wire ------------------*- C++ -*-===//
//
// Remote CQ data (32 bits, so providers with 4-byte cq_data_size work), the
// operation contexts handed to libfabric, and window/attachment handles.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_WIRE_H
#define RAMC_SRC_WIRE_H

#include <cstdint>

namespace ramc {

// Remote CQ data: kind in bits 30-31. WindowOps counts a run of puts into
// one window (notify_run.cpp): the last put of the run carries it, or a
// note after the run (delivered runs).
enum class DataKind : uint32_t { WindowOp = 1, AttachAck = 2, WindowOps = 3 };

// Window channel id: generation (8 bits) and index (22 bits).
constexpr uint32_t kMaxWindows = 1u << 22;
inline uint32_t makeChannel(uint32_t Index, uint32_t Gen) {
  return ((Gen & 0xffu) << 22) | (Index & (kMaxWindows - 1));
}
inline uint32_t channelIndex(uint32_t Chan) { return Chan & (kMaxWindows - 1); }

inline uint64_t encodeWindowOp(uint32_t Chan) {
  return (static_cast<uint32_t>(DataKind::WindowOp) << 30) |
         (Chan & 0x3fffffffu);
}
// WindowOps: generation (8 bits) at 22-29 as in a channel, the run's
// length less one (8 bits) at 14-21, the window's index (14 bits) at 0-13,
// so only windows with an index below kRunWindows carry runs.
constexpr uint32_t kRunWindows = 1u << 14;
constexpr uint32_t kMaxRun = 256;
/// The notification of Count puts (1..kMaxRun) into Chan, whose index is
/// below kRunWindows when Count > 1.
inline uint64_t encodeWindowOps(uint32_t Chan, uint32_t Count) {
  if (Count == 1)
    return encodeWindowOp(Chan);
  return (static_cast<uint32_t>(DataKind::WindowOps) << 30) |
         (Chan & (0xffu << 22)) | ((Count - 1) & 0xffu) << 14 |
         channelIndex(Chan);
}
/// The channel and count of WindowOps payload P.
inline uint32_t runChannel(uint32_t P) {
  return (P & (0xffu << 22)) | (P & (kRunWindows - 1));
}
inline uint32_t runCount(uint32_t P) { return ((P >> 14) & 0xffu) + 1; }
inline uint64_t encodeAttachAck(uint32_t Rank) {
  return (static_cast<uint32_t>(DataKind::AttachAck) << 30) |
         (Rank & 0x3fffffffu);
}
inline DataKind dataKind(uint64_t Data) {
  return static_cast<DataKind>((Data >> 30) & 3u);
}
inline uint32_t dataPayload(uint64_t Data) {
  return static_cast<uint32_t>(Data & 0x3fffffffu);
}

// Operation context passed to libfabric (never dereferenced: RAMC does not
// accept FI_CONTEXT mode). Kind in bits 56-63, peer in 32-55, sequence 0-31.
enum class OpKind : uint8_t {
  Put = 1,
  Get = 2,
  Internal = 3, // blocking status/board read
  Ack = 4,
  Atomic = 5,
  Batch = 6 // aggregated puts (batch.h); the sequence is the send buffer
};
inline void *encodeOp(OpKind K, int Peer, uint32_t Seq) {
  uint64_t V = (static_cast<uint64_t>(K) << 56) |
               ((static_cast<uint64_t>(Peer) & 0xffffffu) << 32) | Seq;
  return reinterpret_cast<void *>(static_cast<uintptr_t>(V));
}
/// Whether Ctx came from encodeOp (receive buffers' contexts are small
/// indices).
inline bool isOpContext(void *Ctx) {
  return (reinterpret_cast<uintptr_t>(Ctx) >> 56) != 0;
}
inline OpKind opKind(void *Ctx) {
  return static_cast<OpKind>(reinterpret_cast<uintptr_t>(Ctx) >> 56);
}
inline int opPeer(void *Ctx) {
  return static_cast<int>((reinterpret_cast<uintptr_t>(Ctx) >> 32) & 0xffffffu);
}
inline uint32_t opSeq(void *Ctx) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(Ctx));
}
const char *opName(OpKind K);

// Handles: a type tag (bits 56-63), generation (24-55) and slot (0-23).
enum class HandleKind : uint8_t { Target = 0x7a, Initiator = 0x1b };
inline uint64_t makeHandle(HandleKind K, uint32_t Slot, uint32_t Gen) {
  return (static_cast<uint64_t>(K) << 56) | (static_cast<uint64_t>(Gen) << 24) |
         (Slot & 0xffffffu);
}
inline bool handleIs(uint64_t H, HandleKind K) {
  return (H >> 56) == static_cast<uint64_t>(K);
}
inline uint32_t handleSlot(uint64_t H) { return H & 0xffffffu; }
inline uint32_t handleGen(uint64_t H) {
  return static_cast<uint32_t>((H >> 24) & 0xffffffffu);
}

} // namespace ramc

#endif
