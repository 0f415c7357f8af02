//===- RecordedReadsTest.cpp - Device values a native run read ------------===//

#include "orrery/support/RecordedReads.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

using namespace orrery::support;

namespace {

template <typename T> std::string valueOf(const std::string &Type, T V) {
  unsigned char B[sizeof(T)];
  std::memcpy(B, &V, sizeof(T));
  return recordedValue(Type, B, sizeof(T));
}

TEST(RecordedReadsTest, ElementsPrintAsTheyParseBack) {
  EXPECT_EQ(valueOf("f64", 0.1), "0.10000000000000001"); // 17 digits: exact
  EXPECT_EQ(valueOf("f64", 1.0), "1");
  EXPECT_EQ(valueOf("f32", 0.1f), "0.100000001"); // 9 digits: exact
  EXPECT_EQ(valueOf("i16", std::int16_t(-2)), "-2");
  EXPECT_EQ(valueOf("i32", std::int32_t(-2147483647 - 1)), "-2147483648");
  EXPECT_EQ(valueOf("u32", std::uint32_t(4000000000u)), "4000000000");
  EXPECT_EQ(valueOf("i64", std::int64_t(-5)), "-5");
  EXPECT_EQ(valueOf("u8", std::uint8_t(255)), "255");
}

TEST(RecordedReadsTest, EqualElementsAreOneNumberOthersTheirBytes) {
  double Same[3] = {2.5, 2.5, 2.5};
  EXPECT_EQ(recordedValue("f64", reinterpret_cast<unsigned char *>(Same),
                          sizeof Same),
            "2.5");
  std::int32_t Differ[2] = {1, 2};
  EXPECT_EQ(recordedValue("i32", reinterpret_cast<unsigned char *>(Differ),
                          sizeof Differ),
            "bytes:0x0100000002000000");
  // Not a whole number of elements: its bytes.
  unsigned char Odd[5] = {1, 0, 0, 0, 1};
  EXPECT_EQ(recordedValue("i32", Odd, 5), "bytes:0x0100000001");
  // Untyped destinations: one byte when all are equal.
  unsigned char Bytes[4] = {7, 7, 7, 7};
  EXPECT_EQ(recordedValue("bytes", Bytes, 4), "0x07");
  unsigned char Mixed[3] = {1, 2, 255};
  EXPECT_EQ(recordedValue("bytes", Mixed, 3), "0x0102ff");
}

TEST(RecordedReadsTest, LongMixedBuffersKeepTheirStart) {
  std::vector<unsigned char> Big(3 * MaxRecordedBytes);
  for (std::size_t I = 0; I < Big.size(); ++I)
    Big[I] = static_cast<unsigned char>(I);
  std::string V = recordedValue("u8", Big.data(), Big.size());
  EXPECT_EQ(V.size(), std::string("bytes:0x").size() + 2 * MaxRecordedBytes);
}

TEST(RecordedReadsTest, RunsOfEqualValuesRoundTrip) {
  RecordedReads R;
  R.Rank = 3;
  R.WorldSize = 8;
  R.Unrecorded = 2;
  RecordedSite S;
  S.File = "src/solver.cpp";
  S.Line = 78;
  S.Column = 5;
  S.Api = "cudaMemcpy";
  S.Type = "f64";
  S.Bytes = 8;
  for (const char *V : {"1", "1", "1", "0.5", "1e-15"})
    S.add(V);
  EXPECT_EQ(S.Reads, 5u);
  ASSERT_EQ(S.Values.size(), 3u);
  EXPECT_EQ(S.Values[0], (std::pair<std::string, std::uint64_t>("1", 3)));
  R.Sites.push_back(S);

  RecordedReads Back;
  std::string Error;
  ASSERT_TRUE(parseRecordedReads(recordedReadsJson(R), "r.json", Back, Error))
      << Error;
  EXPECT_EQ(Back.Rank, 3);
  EXPECT_EQ(Back.WorldSize, 8);
  EXPECT_EQ(Back.Unrecorded, 2u);
  ASSERT_EQ(Back.Sites.size(), 1u);
  EXPECT_EQ(Back.Sites[0].File, "src/solver.cpp");
  EXPECT_EQ(Back.Sites[0].Line, 78u);
  EXPECT_EQ(Back.Sites[0].Reads, 5u);
  EXPECT_EQ(Back.Sites[0].Values, S.Values);
}

TEST(RecordedReadsTest, BadFilesAreNamedWithTheEntryAtFault) {
  RecordedReads Out;
  std::string Error;
  EXPECT_FALSE(parseRecordedReads("[1]", "a.json", Out, Error));
  EXPECT_NE(Error.find("a.json: not a JSON object"), std::string::npos);
  EXPECT_FALSE(parseRecordedReads(
      R"({"schema": "orrery-device-reads/1", "rank": 2, "world_size": 2,
          "sites": []})",
      "b.json", Out, Error));
  EXPECT_NE(Error.find("rank 2 is not below world_size 2"), std::string::npos);
  EXPECT_FALSE(parseRecordedReads(
      R"({"schema": "orrery-device-reads/1", "rank": 0, "world_size": 1,
          "sites": [{"file": "f.c", "line": 3, "type": "f64",
                     "values": [["1", 0]]}]})",
      "c.json", Out, Error));
  EXPECT_NE(Error.find("c.json: sites[0]: values[0] is not [VALUE, COUNT]"),
            std::string::npos)
      << Error;
  EXPECT_FALSE(parseRecordedReads(
      R"({"schema": "orrery-device-reads/1", "rank": 0, "world_size": 1,
          "sites": [{"file": "f.c", "line": 0, "type": "f64",
                     "values": []}]})",
      "d.json", Out, Error));
  EXPECT_NE(Error.find("d.json: sites[0]: \"line\" is not an integer >= 1"),
            std::string::npos)
      << Error;
}

} // namespace
