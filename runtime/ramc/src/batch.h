//===- batch.h - aggregated small puts on the wire --------------*- C++ -*-===//
//
// Small non-blocking puts to one peer are copied into a batch and shipped as
// one message (Transport::sendBatch); the target deposits each put into its
// window and counts it, as if it had arrived as an RMA write of its own
// (docs/ramc.md, "Aggregation of small puts"). A batch is a BatchHeader and
// then one record per put: a RecordHeader, the put's bytes, and padding to
// a multiple of 8 bytes. Readers never assume alignment (a multi-receive
// buffer packs messages back to back).
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_BATCH_H
#define RAMC_SRC_BATCH_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace ramc {

constexpr uint32_t kBatchMagic = 0x52414d42; // "RAMB"
/// The largest batch any process sends; receivers accept this much.
constexpr size_t kMaxBatchBytes = 64 * 1024;

struct BatchHeader {
  uint32_t Magic;
  uint32_t Records;
  uint32_t Sender; // the sending rank
  uint32_t Bytes;  // header and records
};

struct RecordHeader {
  uint32_t Chan; // the window's channel id (wire.h makeChannel)
  uint32_t Len;
  uint64_t Off; // byte offset in the window
};

/// Where the first record's bytes start in a batch.
constexpr size_t kFirstRecordData = sizeof(BatchHeader) + sizeof(RecordHeader);

/// Bytes a put of Len bytes takes in a batch.
inline size_t batchRecordBytes(size_t Len) {
  return sizeof(RecordHeader) + ((Len + 7) & ~size_t(7));
}

/// Fills a caller-owned buffer with a batch.
class BatchWriter {
public:
  void reset(uint8_t *Buf, size_t Cap, uint32_t Sender) {
    Data = Buf;
    Capacity = Cap;
    Used = sizeof(BatchHeader);
    Count = 0;
    this->Sender = Sender;
  }
  bool fits(size_t Len) const { return fits(Len, Capacity); }
  /// Whether a put of Len bytes keeps the batch within Cap (<= the
  /// buffer's capacity) bytes.
  bool fits(size_t Len, size_t Cap) const {
    return Data && Used + batchRecordBytes(Len) <= std::min(Cap, Capacity);
  }
  /// Appends one put; fits(Len) must hold.
  void append(uint32_t Chan, uint64_t Off, const void *Src, size_t Len) {
    RecordHeader R{Chan, static_cast<uint32_t>(Len), Off};
    std::memcpy(Data + Used, &R, sizeof(R));
    std::memcpy(Data + Used + sizeof(R), Src, Len);
    size_t Padded = batchRecordBytes(Len);
    std::memset(Data + Used + sizeof(R) + Len, 0, Padded - sizeof(R) - Len);
    Used += Padded;
    ++Count;
  }
  /// Writes the header; returns the batch's size in bytes.
  size_t finish() {
    BatchHeader H{kBatchMagic, Count, Sender, static_cast<uint32_t>(Used)};
    std::memcpy(Data, &H, sizeof(H));
    return Used;
  }
  uint32_t records() const { return Count; }
  size_t bytes() const { return Used; }
  uint8_t *buffer() const { return Data; }

private:
  uint8_t *Data = nullptr;
  size_t Capacity = 0;
  size_t Used = 0;
  uint32_t Count = 0;
  uint32_t Sender = 0;
};

/// Calls Deposit(Chan, Off, Bytes, Len) for each record of the Len-byte
/// batch at Data, in the order they were appended. Returns false, with Err
/// saying what is malformed, on anything that is not a whole batch (no
/// record is deposited then). Sender gets the sending rank.
template <typename Fn>
bool forEachBatchRecord(const uint8_t *Data, size_t Len, uint32_t &Sender,
                        Fn &&Deposit, std::string &Err) {
  BatchHeader H;
  if (Len < sizeof(H)) {
    Err = "a " + std::to_string(Len) + "-byte message is shorter than a batch";
    return false;
  }
  std::memcpy(&H, Data, sizeof(H));
  if (H.Magic != kBatchMagic || H.Bytes != Len) {
    Err = "a " + std::to_string(Len) + "-byte message is not a RAMC batch";
    return false;
  }
  Sender = H.Sender;
  // Validate every record before depositing any.
  size_t At = sizeof(H);
  for (uint32_t I = 0; I < H.Records; ++I) {
    RecordHeader R;
    if (Len - At < sizeof(R) || Len - At < batchRecordBytes(0)) {
      Err = "a batch from rank " + std::to_string(H.Sender) +
            " ends inside record " + std::to_string(I);
      return false;
    }
    std::memcpy(&R, Data + At, sizeof(R));
    if (Len - At < batchRecordBytes(R.Len)) {
      Err = "record " + std::to_string(I) + " of a batch from rank " +
            std::to_string(H.Sender) + " runs past its end";
      return false;
    }
    At += batchRecordBytes(R.Len);
  }
  if (At != Len) {
    Err = "a batch from rank " + std::to_string(H.Sender) +
          " has bytes after its last record";
    return false;
  }
  At = sizeof(H);
  for (uint32_t I = 0; I < H.Records; ++I) {
    RecordHeader R;
    std::memcpy(&R, Data + At, sizeof(R));
    Deposit(R.Chan, R.Off, Data + At + sizeof(R), static_cast<size_t>(R.Len));
    At += batchRecordBytes(R.Len);
  }
  return true;
}

} // namespace ramc

#endif
