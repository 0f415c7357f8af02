//===- KernelCountsTest.cpp - The counts list and the confidence enum -----===//

#include "orrery/models/KernelCounts.h"
#include "orrery/hooks.h"
#include "orrery/models/KernelModel.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace orrery::models;

TEST(KernelCounts, SameFieldsInTheSameOrderAsTheAbiStruct) {
  // One double per count, then the int confidence: the ABI struct and the
  // models' struct expand the same list.
  std::vector<std::string> Names;
  ThreadCounts().forEach([&](const char *N, double) { Names.push_back(N); });
  EXPECT_EQ(Names.size() * sizeof(double),
            offsetof(orrery_kernel_counts, confidence));
  EXPECT_EQ(Names.front(), "threads_launched");
  // ABI 8 appended the matrix (tensor core) counts, ABI 10 remote_bytes.
  EXPECT_EQ(Names[Names.size() - 2], "fp16_mma");
  EXPECT_EQ(Names.back(), "remote_bytes");
  // ABI 4 put grid_same_address_atomics after same_address_atomics.
  EXPECT_EQ(offsetof(orrery_kernel_counts, load_footprint),
            20 * sizeof(double));
  EXPECT_EQ(Names[20], "load_footprint");
}

TEST(KernelCounts, MissingValuesMeanNotDerived) {
  ThreadCounts C;
  EXPECT_EQ(C.load_footprint, -1);
  EXPECT_EQ(C.store_footprint, -1);
  EXPECT_EQ(C.measured_seconds, -1);
  EXPECT_EQ(C.bank_conflict_way, 1);
  EXPECT_EQ(C.fp64_fma, 0);
}

TEST(KernelCounts, UnknownNameIsNotASilentZero) {
  ThreadCounts C;
  ASSERT_NE(C.find("load_bytes"), nullptr);
  *C.find("load_bytes") = 16;
  EXPECT_EQ(C.load_bytes, 16);
  EXPECT_EQ(C.find("load_byte"), nullptr);
  EXPECT_EQ(C.find(""), nullptr);
}

TEST(KernelCounts, ForEachPairVisitsMatchingMembers) {
  ThreadCounts A, B;
  B.fp32_fma = 3;
  B.load_footprint = 64;
  forEachPair(A, B, [](const char *, double &X, double Y) { X = 2 * Y; });
  EXPECT_EQ(A.fp32_fma, 6);
  EXPECT_EQ(A.load_footprint, 128);
}

TEST(Confidence, OneEncoding) {
  EXPECT_EQ(static_cast<int>(Confidence::Exact), ORRERY_CONFIDENCE_EXACT);
  EXPECT_EQ(static_cast<int>(Confidence::Defaulted),
            ORRERY_CONFIDENCE_DEFAULTED);
  EXPECT_STREQ(confidenceName(Confidence::Symbolic), "symbolic");
  EXPECT_EQ(confidenceOfCode(ORRERY_CONFIDENCE_UNKNOWN), Confidence::Unknown);
  EXPECT_EQ(confidenceOfCode(-1), std::nullopt);
  EXPECT_EQ(confidenceNamed("defaulted"), Confidence::Defaulted);
  EXPECT_EQ(confidenceNamed("certain"), std::nullopt);
  EXPECT_LT(Confidence::Exact, Confidence::Unknown);
}

TEST(PredictLaunch, AddsStaticSharedMemoryAndClassifiesTheBound) {
  GpuParams G;
  G.Peak[static_cast<int>(Precision::FP64)] = 10e12;
  G.MemoryBandwidth = 1e12;
  G.SmCount = 100;
  G.SharedMemoryPerSm = 100 * 1024;
  G.SharedMemoryPerBlock = 48 * 1024;
  G.EmptyKernel = 1e-6;
  ThreadCounts C;
  C.active_threads = 1 << 24;
  C.fp64_fma = 1;
  C.load_bytes = 16;
  C.store_bytes = 8;
  C.shared_static_bytes = 40 * 1024;
  LaunchConfig L;
  L.Blocks = (1 << 24) / 256;
  L.ThreadsPerBlock = 256;
  L.SharedBytesPerBlock = 8 * 1024; // dynamic
  LaunchPrediction P = predictLaunch(G, C, L);
  ASSERT_TRUE(P.Roofline.ok()) << P.Roofline.Error;
  // 48 KiB per block in 100 KiB: 2 blocks per SM.
  EXPECT_EQ(P.Roofline.Occ.BlocksPerSm, 2u);
  EXPECT_EQ(P.Roofline.Occ.Limiter, "shared memory");
  EXPECT_STREQ(P.Bound, "memory");
  EXPECT_DOUBLE_EQ(P.Flops, 2.0 * (1 << 24));
  EXPECT_DOUBLE_EQ(P.Bytes, 24.0 * (1 << 24));
  // One more byte of static memory does not fit the block.
  C.shared_static_bytes += 1;
  EXPECT_FALSE(predictLaunch(G, C, L).Roofline.ok());
}
