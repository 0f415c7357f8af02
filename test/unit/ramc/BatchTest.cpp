//===- BatchTest.cpp - aggregated puts: the batch format ------------------===//
#include "batch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

using namespace ramc;

namespace {
struct Deposited {
  uint32_t Chan;
  uint64_t Off;
  std::vector<uint8_t> Bytes;
};

bool readBack(const std::vector<uint8_t> &Msg, std::vector<Deposited> &Out,
              uint32_t &Sender, std::string &Err) {
  return forEachBatchRecord(
      Msg.data(), Msg.size(), Sender,
      [&](uint32_t Chan, uint64_t Off, const uint8_t *B, size_t N) {
        Out.push_back({Chan, Off, std::vector<uint8_t>(B, B + N)});
      },
      Err);
}

std::vector<uint8_t> sampleBatch() {
  std::vector<uint8_t> Buf(256);
  BatchWriter W;
  W.reset(Buf.data(), Buf.size(), 7);
  const char A[] = "x", B[] = "seven!!", C[] = "thirteen byte";
  W.append(11, 0, A, 1);
  W.append(12, 4096, B, 7);
  W.append(11, 40, C, 13);
  Buf.resize(W.finish());
  return Buf;
}
} // namespace

TEST(Batch, RecordsComeBackInOrderWithTheirBytes) {
  std::vector<uint8_t> Msg = sampleBatch();
  // Header 16, records 16+8, 16+8, 16+16.
  EXPECT_EQ(Msg.size(), 16u + 24 + 24 + 32);
  std::vector<Deposited> Got;
  uint32_t Sender = 0;
  std::string Err;
  ASSERT_TRUE(readBack(Msg, Got, Sender, Err)) << Err;
  EXPECT_EQ(Sender, 7u);
  ASSERT_EQ(Got.size(), 3u);
  EXPECT_EQ(Got[0].Chan, 11u);
  EXPECT_EQ(Got[0].Off, 0u);
  EXPECT_EQ(std::string(Got[0].Bytes.begin(), Got[0].Bytes.end()), "x");
  EXPECT_EQ(Got[1].Chan, 12u);
  EXPECT_EQ(Got[1].Off, 4096u);
  EXPECT_EQ(std::string(Got[1].Bytes.begin(), Got[1].Bytes.end()), "seven!!");
  EXPECT_EQ(Got[2].Off, 40u);
  EXPECT_EQ(std::string(Got[2].Bytes.begin(), Got[2].Bytes.end()),
            "thirteen byte");
}

TEST(Batch, UnalignedMessagesAreRead) {
  std::vector<uint8_t> Msg = sampleBatch();
  std::vector<uint8_t> Shifted(Msg.size() + 3);
  std::memcpy(Shifted.data() + 3, Msg.data(), Msg.size());
  std::vector<Deposited> Got;
  uint32_t Sender = 0;
  std::string Err;
  ASSERT_TRUE(forEachBatchRecord(
      Shifted.data() + 3, Msg.size(), Sender,
      [&](uint32_t C, uint64_t O, const uint8_t *B, size_t N) {
        Got.push_back({C, O, std::vector<uint8_t>(B, B + N)});
      },
      Err))
      << Err;
  EXPECT_EQ(Got.size(), 3u);
}

TEST(Batch, FitsStopsAtTheCapacity) {
  std::vector<uint8_t> Buf(16 + 2 * 24);
  BatchWriter W;
  W.reset(Buf.data(), Buf.size(), 0);
  uint8_t X[8] = {};
  EXPECT_TRUE(W.fits(8));
  W.append(1, 0, X, 8);
  EXPECT_FALSE(W.fits(9)); // 16 + 16 bytes would not fit in the 24 left
  EXPECT_TRUE(W.fits(8));
  W.append(1, 8, X, 8);
  EXPECT_FALSE(W.fits(1));
  EXPECT_EQ(W.records(), 2u);
  EXPECT_EQ(W.finish(), Buf.size());
}

TEST(Batch, MalformedMessagesDepositNothing) {
  std::vector<uint8_t> Good = sampleBatch();
  auto Rejects = [](std::vector<uint8_t> Msg, const char *Says) {
    std::vector<Deposited> Got;
    uint32_t Sender = 0;
    std::string Err;
    EXPECT_FALSE(readBack(Msg, Got, Sender, Err));
    EXPECT_TRUE(Got.empty());
    EXPECT_NE(Err.find(Says), std::string::npos) << Err;
  };
  Rejects(std::vector<uint8_t>(Good.begin(), Good.begin() + 8), "shorter");
  std::vector<uint8_t> Magic = Good;
  Magic[0] ^= 1;
  Rejects(Magic, "not a RAMC batch");
  // The header's size disagrees with the message's.
  Rejects(std::vector<uint8_t>(Good.begin(), Good.end() - 8),
          "not a RAMC batch");
  // A record that claims more bytes than the batch holds, keeping the
  // header's size right: the last record's length grows.
  std::vector<uint8_t> Long = Good;
  uint32_t Big = 200;
  std::memcpy(Long.data() + 16 + 24 + 24 + 4, &Big, 4);
  Rejects(Long, "runs past its end");
  // More records claimed than present.
  std::vector<uint8_t> More = Good;
  uint32_t Four = 4;
  std::memcpy(More.data() + 4, &Four, 4);
  Rejects(More, "ends inside record 3");
  // Fewer: bytes left after the last.
  std::vector<uint8_t> Fewer = Good;
  uint32_t Two = 2;
  std::memcpy(Fewer.data() + 4, &Two, 4);
  Rejects(Fewer, "bytes after its last record");
}
