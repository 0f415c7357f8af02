//===- DeviceValueSpecTest.cpp - FILE:LINE[@ARG]=VALUE and its list -------===//

#include "orrery/support/DeviceValueSpec.h"

#include <gtest/gtest.h>

using namespace orrery::support;

TEST(DeviceValueSpec, ParsesSitesAndKernelParameters) {
  DeviceValueSpec D;
  std::string Why;
  ASSERT_TRUE(parseDeviceValueSpec("dir/jacobi.cu:282=1.0*59,0", D, Why))
      << Why;
  EXPECT_EQ(D.File, "dir/jacobi.cu");
  EXPECT_EQ(D.Line, 282u);
  EXPECT_EQ(D.Arg, "");
  EXPECT_EQ(D.Value, "1.0*59,0");
  ASSERT_TRUE(parseDeviceValueSpec("a@b.cu:42@flag=1", D, Why)) << Why;
  EXPECT_EQ(D.File, "a@b.cu"); // an '@' before the line is the file's
  EXPECT_EQ(D.Arg, "flag");
  ASSERT_TRUE(parseDeviceValueSpec("a.cu:42@3=0", D, Why)) << Why;
  EXPECT_EQ(D.Arg, "3");
}

TEST(DeviceValueSpec, NamesWhatIsWrong) {
  DeviceValueSpec D;
  std::string Why;
  EXPECT_FALSE(parseDeviceValueSpec("a.cu:42", D, Why));
  EXPECT_NE(Why.find("is not FILE:LINE=VALUE"), std::string::npos) << Why;
  EXPECT_FALSE(parseDeviceValueSpec("a.cu:x=1", D, Why));
  EXPECT_NE(Why.find("line 'x'"), std::string::npos) << Why;
  EXPECT_FALSE(parseDeviceValueSpec("a.cu:4@a-b=1", D, Why));
  EXPECT_NE(Why.find("after '@'"), std::string::npos) << Why;
  EXPECT_FALSE(parseDeviceValueSpec("a.cu:4=1*", D, Why));
  EXPECT_NE(Why.find("value for a.cu:4"), std::string::npos) << Why;
}

TEST(DeviceValueSpec, ListRoundTrips) {
  std::vector<DeviceValueSpec> In(2), Out;
  In[0] = {"solver.cu", 25, "more", "1*59,0", "--device-value"};
  In[1] = {"reads.cu", 7, "", "geom(1,0.5)", "values.yaml:3"};
  std::string Why;
  ASSERT_TRUE(parseDeviceValuesJson(deviceValuesJson(In), Out, Why)) << Why;
  ASSERT_EQ(Out.size(), 2u);
  for (size_t I = 0; I < 2; ++I) {
    EXPECT_EQ(Out[I].File, In[I].File);
    EXPECT_EQ(Out[I].Line, In[I].Line);
    EXPECT_EQ(Out[I].Arg, In[I].Arg);
    EXPECT_EQ(Out[I].Value, In[I].Value);
    EXPECT_EQ(Out[I].Origin, In[I].Origin);
  }
  EXPECT_FALSE(parseDeviceValuesJson("[{\"file\": \"a.cu\"}]", Out, Why));
  EXPECT_EQ(Why, "an entry lacks file, line or value");
  EXPECT_FALSE(parseDeviceValuesJson("{}", Out, Why));
}
