//===- NativeProfileTest.cpp - liborrery-native's per-site record ---------===//

#include "SiteProfile.h"
#include "orrery/formats/ReportCheck.h"
#include "orrery/hooks.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace {

orrery_site site(unsigned Id, int Kind, const char *Api) {
  return {ORRERY_HOOK_ABI_VERSION, Id, "app.cu", Id, 1, Kind, Api, nullptr};
}

/// The profile's record of site \p Id.
nlohmann::json recordOf(unsigned Id) {
  std::string Path = "/tmp/orrery-native-test-" + std::to_string(getpid());
  EXPECT_TRUE(orrery::native::SiteProfile::instance().write(Path));
  std::ifstream In(Path);
  nlohmann::json J = nlohmann::json::parse(In);
  std::remove(Path.c_str());
  for (const nlohmann::json &S : J["sites"])
    if (S["id"] == Id)
      return S;
  ADD_FAILURE() << "site " << Id << " missing from " << J.dump();
  return {};
}

// The byte counts of CUDA calls are what the native backend reads of their
// annotation (so an argument with side effects there draws W005).
TEST(NativeProfile, RecordsTheBytesOfCudaCalls) {
  static const orrery_site Copy = site(1, ORRERY_KIND_CUDA, "cudaMemcpy");
  int Buf[4];
  for (int I = 0; I < 3; ++I) {
    orrery_cuda_begin(&Copy, orrery_buf_bytes(Buf, 4096),
                      orrery_buf_bytes(Buf + 1, 4096), 1, nullptr);
    orrery_end(&Copy, 0);
  }
  nlohmann::json R = recordOf(1);
  EXPECT_EQ(R["calls"], 3);
  EXPECT_EQ(R["bytes"], 3 * 4096);
}

TEST(NativeProfile, RecordsTheBytesOfRamcCalls) {
  static const orrery_site Put = site(2, ORRERY_KIND_RAMC, "ramc_put");
  int Buf[4];
  orrery_ramc_begin(&Put, orrery_buf_bytes(Buf, 100), orrery_buf_none(), 1,
                    nullptr, 0);
  orrery_end(&Put, 0);
  EXPECT_EQ(recordOf(2)["bytes"], 100);
}

// Nested calls each keep their own bytes.
TEST(NativeProfile, NestedCallsKeepTheirBytes) {
  static const orrery_site Outer = site(3, ORRERY_KIND_CUDA, "cudaMemset");
  static const orrery_site Inner = site(4, ORRERY_KIND_CUDA, "cudaMalloc");
  int Buf[4];
  orrery_cuda_begin(&Outer, orrery_buf_bytes(Buf, 10), orrery_buf_none(), 0,
                    nullptr);
  orrery_cuda_begin(&Inner, orrery_buf_bytes(Buf, 7), orrery_buf_none(), 0,
                    nullptr);
  orrery_end(&Inner, 0);
  orrery_end(&Outer, 0);
  EXPECT_EQ(recordOf(3)["bytes"], 10);
  EXPECT_EQ(recordOf(4)["bytes"], 7);
}

// Every field the native report has is listed in the schema
// (formats/.../ReportFields.def), and every field a measured report always
// has is written: a field added to the writer alone fails here.
TEST(NativeProfile, ReportFollowsTheSchema) {
  static const orrery_site Launch = site(5, ORRERY_KIND_LAUNCH, "<<<>>>");
  orrery_launch_begin(&Launch, {1, 1, 1}, {32, 1, 1}, 0, nullptr);
  orrery_end(&Launch, 0);
  std::string Path =
      "/tmp/orrery-native-report-test-" + std::to_string(getpid());
  std::string Error;
  ASSERT_TRUE(orrery::native::SiteProfile::instance().writeReport(Path, Error))
      << Error;
  std::ifstream In(Path);
  nlohmann::json J = nlohmann::json::parse(In);
  std::remove(Path.c_str());
  EXPECT_EQ(J["kind"], "measured");
  EXPECT_EQ(J["kernels"].size(), 1u);
  EXPECT_TRUE(orrery::formats::checkReport(
      J, orrery::formats::CheckMode::Written, Error))
      << Error << "\n"
      << J.dump(2);
}

} // namespace
