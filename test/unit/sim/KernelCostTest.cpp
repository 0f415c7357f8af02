//===- KernelCostTest.cpp - Launch cost from an evaluated cost hint -------===//

#include "gpu/KernelCost.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace orrery;

namespace {

models::GpuParams testGpu() {
  models::GpuParams G;
  G.Peak[static_cast<int>(models::Precision::FP64)] = 10e12;
  G.Peak[static_cast<int>(models::Precision::FP32)] = 20e12;
  G.PeakInt = 10e12;
  G.MemoryBandwidth = 1e12;
  G.SmCount = 100;
  G.SharedMemoryPerSm = 228 * 1024;
  G.SharedMemoryPerBlock = 227 * 1024;
  G.Launch = 4e-6;
  G.EmptyKernel = 1e-6;
  return G;
}

orrery_kernel_counts streamCounts(double N) {
  orrery_kernel_counts C{};
  C.threads_launched = N;
  C.active_threads = N;
  C.fp64_fma = 1;
  C.load_bytes = 16;
  C.store_bytes = 8;
  C.load_footprint = -1;
  C.store_footprint = -1;
  C.measured_seconds = -1;
  C.confidence = ORRERY_CONFIDENCE_SYMBOLIC;
  return C;
}

} // namespace

TEST(KernelWork, ScalesPerThreadCountsByActiveThreads) {
  orrery_kernel_counts C = streamCounts(1000);
  C.fp32_add = 3;
  C.fp64_div = 2;
  models::KernelWork W = sim::kernelWork(C);
  EXPECT_DOUBLE_EQ(W.Flops[static_cast<int>(models::Precision::FP64)], 2000);
  EXPECT_DOUBLE_EQ(W.Flops[static_cast<int>(models::Precision::FP32)], 3000);
  EXPECT_DOUBLE_EQ(W.Divides[static_cast<int>(models::Precision::FP64)], 2000);
  EXPECT_DOUBLE_EQ(W.BytesRead, 16000);
  EXPECT_DOUBLE_EQ(W.BytesWritten, 8000);
}

TEST(LaunchCost, MemoryBoundStreamingKernel) {
  models::GpuParams G = testGpu();
  const double N = 1 << 26;
  orrery_kernel_counts C = streamCounts(N);
  sim::LaunchCost L =
      sim::launchCost(G, &C, {unsigned(N / 256), 1, 1}, {256, 1, 1}, 0);
  ASSERT_TRUE(L.Error.empty()) << L.Error;
  EXPECT_DOUBLE_EQ(L.Launch, 4e-6);
  // 24 bytes per element at 1 TB/s; wave quantization adds < 1%.
  EXPECT_NEAR(L.device(), 24 * N / 1e12, 0.01 * 24 * N / 1e12);
  EXPECT_GT(L.Memory, L.Compute);
  EXPECT_DOUBLE_EQ(L.Flops, 2 * N);
  EXPECT_DOUBLE_EQ(L.Bytes, 24 * N);
  EXPECT_FALSE(L.Estimate);
}

TEST(LaunchCost, MeasuredDurationWins) {
  orrery_kernel_counts C = streamCounts(1 << 20);
  C.measured_seconds = 3e-3;
  sim::LaunchCost L =
      sim::launchCost(testGpu(), &C, {4096, 1, 1}, {256, 1, 1}, 0);
  EXPECT_TRUE(L.Measured);
  EXPECT_DOUBLE_EQ(L.device(), 3e-3);
}

TEST(LaunchCost, NoHintIsAnEmptyKernelRestingOnEstimates) {
  sim::LaunchCost L =
      sim::launchCost(testGpu(), nullptr, {1, 1, 1}, {32, 1, 1}, 0);
  ASSERT_TRUE(L.Error.empty()) << L.Error;
  EXPECT_DOUBLE_EQ(L.device(), 1e-6); // the empty kernel's device time
  EXPECT_TRUE(L.Estimate);
  EXPECT_DOUBLE_EQ(L.Flops, 0);
}

TEST(LaunchCost, DefaultedHintRestsOnEstimates) {
  orrery_kernel_counts C = streamCounts(1024);
  C.confidence = ORRERY_CONFIDENCE_DEFAULTED;
  EXPECT_TRUE(
      sim::launchCost(testGpu(), &C, {4, 1, 1}, {256, 1, 1}, 0).Estimate);
}

TEST(LaunchCost, OversizedBlockIsAnError) {
  orrery_kernel_counts C = streamCounts(2048);
  sim::LaunchCost L =
      sim::launchCost(testGpu(), &C, {1, 1, 1}, {2048, 1, 1}, 0);
  EXPECT_FALSE(L.Error.empty());
}

// Same-address atomics serialise at the L2, one every t_a: the launch grows
// with them; atomics to distinct addresses (counted in `atomics` only) do not.
TEST(LaunchCost, SameAddressAtomicsSerialise) {
  models::GpuParams G = testGpu();
  G.SameAddressAtomic = 0.5e-9;
  const double N = 1 << 20;
  auto Device = [&](double Grid, double PerBlock) {
    orrery_kernel_counts C = streamCounts(N);
    C.atomics = 1;
    C.same_address_atomics = Grid + PerBlock;
    C.grid_same_address_atomics = Grid;
    sim::LaunchCost L =
        sim::launchCost(G, &C, {unsigned(N / 256), 1, 1}, {256, 1, 1}, 0);
    EXPECT_TRUE(L.Error.empty()) << L.Error;
    return L.device();
  };
  double Distinct = Device(0, 0);
  // Streaming: 24 B x 2^20 at 1 TB/s = 25.2 us, and a partial last wave.
  EXPECT_LT(Distinct, 40e-6);
  // One address for the launch: 2^20 atomics in a row, 524.3 us, and the
  // device's per-kernel 1 us.
  EXPECT_NEAR(Device(1, 0), N * 0.5e-9 + 1e-6, 1e-12);
  // Two each: twice the chain.
  EXPECT_NEAR(Device(2, 0), 2 * N * 0.5e-9 + 1e-6, 1e-12);
  // One address per block: 256 in a row per block; 4096 blocks, 8 resident
  // per SM (2048 / 256 threads) x 100 SMs = 800 per wave, 6 waves:
  // 6 x 256 x 0.5 ns = 0.77 us, hidden under the streaming time.
  EXPECT_DOUBLE_EQ(Device(0, 1), Distinct);
}

TEST(LaunchCost, PtxasRegistersSetTheOccupancy) {
  models::GpuParams G = testGpu();
  G.MemoryLatency = 500e-9; // Little's law: loads in flight set the rate
  const double N = 1 << 26;
  orrery_kernel_counts C = streamCounts(N);
  sim::LaunchCost Assumed =
      sim::launchCost(G, &C, {unsigned(N / 256), 1, 1}, {256, 1, 1}, 0);
  C.registers_per_thread = 255;
  sim::LaunchCost Heavy =
      sim::launchCost(G, &C, {unsigned(N / 256), 1, 1}, {256, 1, 1}, 0);
  ASSERT_TRUE(Heavy.Error.empty()) << Heavy.Error;
  // Each thread moves 24 B (16 B loaded: one 500 ns round); n resident
  // threads reach n x 24 B / 500 ns, which stretches the 1 TB/s memory time
  // by sqrt(1 + (1 TB/s / reach)^2).
  auto Stretch = [](double Resident) {
    double Reach = Resident * 24 / 500e-9;
    return std::sqrt(1 + (1e12 / Reach) * (1e12 / Reach));
  };
  // 32 registers (assumed): 8 blocks of 256 per SM, 800 per wave: 327 full
  // waves and one of 544 blocks (6 on its busiest SM, counted for all 100).
  // 255: 256 x 32 = 8192 registers per warp, 8 warps, one block per SM:
  // 2,621 full waves and one of 44 blocks (1 per SM). 262,144 blocks.
  const double T = 24 * N / 1e12, B = N / 256;
  double AssumedMemory = T * (327 * 800 / B * Stretch(8 * 256 * 100) +
                              600 / B * Stretch(6 * 256 * 100));
  double HeavyMemory = T * (262200 / B * Stretch(256 * 100));
  EXPECT_NEAR(Assumed.device(), AssumedMemory + 1e-6, 1e-12);
  EXPECT_NEAR(Heavy.device(), HeavyMemory + 1e-6, 1e-12);
  EXPECT_GT(Heavy.device(), 1.2 * Assumed.device());
}
