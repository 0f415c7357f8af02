//===- UnitsTest.cpp - Unit spellings and conversions ---------------------===//

#include "orrery/models/Units.h"

#include <gtest/gtest.h>

using namespace orrery::models;

TEST(Units, BandwidthBytesAndBits) {
  EXPECT_DOUBLE_EQ(*unitFactor(Dimension::Bandwidth, "GB/s"), 1e9);
  EXPECT_DOUBLE_EQ(*unitFactor(Dimension::Bandwidth, "MB/s"), 1e6);
  EXPECT_DOUBLE_EQ(*unitFactor(Dimension::Bandwidth, "GiB/s"), 1073741824.0);
  // 200 Gbit/s is 25 GB/s; lower-case b is a bit.
  EXPECT_DOUBLE_EQ(200 * *unitFactor(Dimension::Bandwidth, "Gbit/s"), 25e9);
  EXPECT_DOUBLE_EQ(200 * *unitFactor(Dimension::Bandwidth, "Gb/s"), 25e9);
}

TEST(Units, TimeRateBytesFrequency) {
  EXPECT_DOUBLE_EQ(*unitFactor(Dimension::Time, "us"), 1e-6);
  EXPECT_DOUBLE_EQ(*unitFactor(Dimension::Time, "ns"), 1e-9);
  EXPECT_DOUBLE_EQ(*unitFactor(Dimension::Time, "ms"), 1e-3);
  EXPECT_DOUBLE_EQ(*unitFactor(Dimension::Rate, "TFLOP/s"), 1e12);
  EXPECT_DOUBLE_EQ(*unitFactor(Dimension::Rate, "TOP/s"), 1e12);
  EXPECT_DOUBLE_EQ(*unitFactor(Dimension::Bytes, "KiB"), 1024.0);
  EXPECT_DOUBLE_EQ(*unitFactor(Dimension::Bytes, "KB"), 1000.0);
  EXPECT_DOUBLE_EQ(*unitFactor(Dimension::Frequency, "GHz"), 1e9);
  EXPECT_DOUBLE_EQ(*unitFactor(Dimension::Ratio, "%"), 0.01);
}

TEST(Units, WrongDimensionIsRejected) {
  EXPECT_FALSE(unitFactor(Dimension::Bandwidth, "us"));
  EXPECT_FALSE(unitFactor(Dimension::Time, "GB/s"));
  EXPECT_FALSE(unitFactor(Dimension::Rate, "GB/s"));
  EXPECT_FALSE(unitFactor(Dimension::Bytes, "GB/s"));
  EXPECT_FALSE(unitFactor(Dimension::Count, ""));
  EXPECT_FALSE(unitFactor(Dimension::Bandwidth, "gb/s"));
}

TEST(Units, Formatting) {
  EXPECT_EQ(formatQuantity(25e9, Dimension::Bandwidth), "25 GB/s");
  EXPECT_EQ(formatQuantity(4e-6, Dimension::Time), "4 us");
  EXPECT_EQ(formatQuantity(0.25, Dimension::Time), "250 ms");
  EXPECT_EQ(formatQuantity(33.5e12, Dimension::Rate), "33.5 TFLOP/s");
  EXPECT_EQ(formatQuantity(0, Dimension::Time), "0 s");
}
