//===- DeviceValuesTest.cpp - Device values in the type read --------------===//

#include "values/DeviceValues.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using orrery::sim::encodeDeviceValue;

namespace {

float asFloat(const std::vector<unsigned char> &B) {
  float F = 0;
  std::memcpy(&F, B.data(), sizeof F);
  return F;
}

} // namespace

TEST(DeviceValues, FloatsFitTheirType) {
  std::vector<unsigned char> B;
  ASSERT_TRUE(encodeDeviceValue("f32", "2.5e-3", B));
  EXPECT_FLOAT_EQ(asFloat(B), 2.5e-3f);
  // 1e39 is no float: refused, not read as infinity.
  EXPECT_FALSE(encodeDeviceValue("f32", "1e39", B));
  EXPECT_FALSE(encodeDeviceValue("f32", "-1e39", B));
  // A double holds it; an explicit infinity is what was asked for.
  EXPECT_TRUE(encodeDeviceValue("f64", "1e39", B));
  ASSERT_TRUE(encodeDeviceValue("f32", "inf", B));
  EXPECT_TRUE(std::isinf(asFloat(B)));
  EXPECT_FALSE(encodeDeviceValue("f64", "1e999", B)); // past a double
  EXPECT_FALSE(encodeDeviceValue("f32", "fast", B));
}

TEST(DeviceValues, IntegersFitTheirWidth) {
  std::vector<unsigned char> B;
  EXPECT_TRUE(encodeDeviceValue("i16", "-32768", B));
  EXPECT_FALSE(encodeDeviceValue("i16", "40000", B));
  EXPECT_FALSE(encodeDeviceValue("u8", "256", B));
  ASSERT_TRUE(encodeDeviceValue("bytes", "0x0102", B));
  EXPECT_EQ(B, (std::vector<unsigned char>{1, 2}));
}
