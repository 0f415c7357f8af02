//===- KernelModelTest.cpp - Occupancy, roofline with waves, single rate --===//
//
// A small made-up GPU keeps the hand computations short: 4 SMs of 64 warps,
// FP64 peak 1 TFLOP/s, FP32 2 TFLOP/s, compute efficiency 0.5, memory
// 1 TB/s at efficiency 0.8 (T_m = bytes / 0.8e12 s), memory saturates at
// occupancy 0.5, compute at 0.25; t_launch 4 us, t_sync 2 us, empty kernel
// 1 us.
//
//===----------------------------------------------------------------------===//

#include "orrery/models/KernelModel.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace orrery::models;

namespace {

constexpr double Us = 1e-6;

GpuParams gpu() {
  GpuParams G;
  G.Peak = {1e12, 2e12, 4e12};
  G.PeakInt = 1e12;
  G.ComputeEfficiency = 0.5;
  G.MemoryBandwidth = 1e12;
  G.MemoryEfficiency = 0.8;
  G.SmCount = 4;
  G.WarpSize = 32;
  G.MaxThreadsPerSm = 2048;
  G.MaxBlocksPerSm = 32;
  G.MaxThreadsPerBlock = 1024;
  G.RegistersPerSm = 65536;
  G.MaxRegistersPerThread = 255;
  G.RegisterAllocationUnit = 256;
  G.SharedMemoryPerSm = 102400;
  G.SharedMemoryPerBlock = 49152;
  G.SharedMemoryAllocationUnit = 128;
  G.ComputeSaturationOccupancy = 0.25;
  G.MemoryLatency = 400e-9;
  G.L2Latency = 200e-9;
  G.BlockOverhead = 100e-9;
  G.L2Size = 40e6;
  G.L2Bandwidth = 4e12;
  G.GraphKernel = 0.5 * Us;
  G.Launch = 4 * Us;
  G.Sync = 2 * Us;
  G.EmptyKernel = 1 * Us;
  G.Weights[0] = {20, 20, 40};
  G.Weights[1] = {20, 20, 16};
  G.Weights[2] = {8, 8, 8};
  G.KernelRate = 5e11;
  G.KernelRateIsBytes = true;
  return G;
}

LaunchConfig launch(std::uint64_t Blocks, std::uint32_t Threads,
                    std::uint32_t Regs = 32, std::uint32_t Shared = 0) {
  LaunchConfig L;
  L.Blocks = Blocks;
  L.ThreadsPerBlock = Threads;
  L.RegistersPerThread = Regs;
  L.SharedBytesPerBlock = Shared;
  return L;
}

KernelWork streaming(double Bytes) {
  KernelWork W;
  W.BytesRead = Bytes * 0.6;
  W.BytesWritten = Bytes * 0.4;
  return W;
}

const double Tm1G = 1e9 / 0.8e12; // T_m of 1 GB: 1.25 ms

/// Little's law by hand for gpu(): \p Resident threads each move
/// \p ThreadBytes, \p ThreadLoads of them loaded 32 B per 400 ns round
/// after a 100 ns turnaround; the factor sqrt(1 + (P / R)^2) by which that
/// stretches the memory time at the peak P.
double littleFactor(double Resident, double ThreadBytes, double ThreadLoads,
                    double Peak = 0.8e12) {
  double Turnaround = 100e-9 + std::ceil(ThreadLoads / 32) * 400e-9;
  double Reach = Resident * ThreadBytes / Turnaround;
  return std::sqrt(1 + (Peak / Reach) * (Peak / Reach));
}

} // namespace

TEST(Occupancy, ThreadLimit) {
  Occupancy O = computeOccupancy(gpu(), launch(1, 256));
  EXPECT_EQ(O.BlocksPerSm, 8u); // 64 warps / 8 per block
  EXPECT_EQ(O.WarpsPerSm, 64u);
  EXPECT_DOUBLE_EQ(O.Fraction, 1.0);
  EXPECT_EQ(O.Limiter, "threads");
}

TEST(Occupancy, RegisterLimitWithAllocationGranularity) {
  // 64 registers: 2048 per warp -> 32 warps -> 4 blocks of 8 warps.
  Occupancy O = computeOccupancy(gpu(), launch(1, 256, 64));
  EXPECT_EQ(O.BlocksPerSm, 4u);
  EXPECT_DOUBLE_EQ(O.Fraction, 0.5);
  EXPECT_EQ(O.Limiter, "registers");
  // 33 registers: 1056 per warp rounds up to 1280 -> 51 warps -> 6 blocks.
  O = computeOccupancy(gpu(), launch(1, 256, 33));
  EXPECT_EQ(O.BlocksPerSm, 6u);
  EXPECT_DOUBLE_EQ(O.Fraction, 0.75);
}

TEST(Occupancy, CarveoutPicksTheSmallestConfigurationHoldingAPreference) {
  GpuParams G = gpu(); // 100 KiB per SM: configurations 0..100 KiB
  EXPECT_EQ(sharedCapacityPerSm(G, -1, 1000), 102400);
  // 25 % of 100 KiB is 25 KiB: the 32 KiB configuration.
  EXPECT_EQ(sharedCapacityPerSm(G, 25, 1000), 32 * 1024);
  // A preference no block fits is overridden by the smallest that does.
  EXPECT_EQ(sharedCapacityPerSm(G, 0, 20000), 32 * 1024);
  EXPECT_EQ(sharedCapacityPerSm(G, 0, 0), 0);
  EXPECT_EQ(sharedCapacityPerSm(G, 100, 1000), 102400);
  // 40064 B blocks: 2 in the 100 KiB of the SM, 1 with a 40 % carveout
  // (the 64 KiB configuration).
  LaunchConfig L = launch(1, 128, 32, 40000);
  L.CarveoutPercent = 40;
  EXPECT_EQ(computeOccupancy(G, L).BlocksPerSm, 1u);
}

TEST(Occupancy, SharedMemoryLimitWithAllocationGranularity) {
  // 40000 B rounds up to 40064 B; 102400 / 40064 -> 2 blocks of 4 warps.
  Occupancy O = computeOccupancy(gpu(), launch(1, 128, 32, 40000));
  EXPECT_EQ(O.BlocksPerSm, 2u);
  EXPECT_DOUBLE_EQ(O.Fraction, 0.125);
  EXPECT_EQ(O.Limiter, "shared memory");
}

TEST(Occupancy, BlockLimit) {
  // 32-thread blocks: 64 by threads, 32 by the block limit.
  Occupancy O = computeOccupancy(gpu(), launch(1, 32));
  EXPECT_EQ(O.BlocksPerSm, 32u);
  EXPECT_DOUBLE_EQ(O.Fraction, 0.5);
  EXPECT_EQ(O.Limiter, "blocks");
}

TEST(Occupancy, InvalidLaunches) {
  EXPECT_FALSE(computeOccupancy(gpu(), launch(1, 2048)).valid());
  EXPECT_FALSE(computeOccupancy(gpu(), launch(1, 0)).valid());
  EXPECT_FALSE(computeOccupancy(gpu(), launch(1, 256, 300)).valid());
  EXPECT_FALSE(computeOccupancy(gpu(), launch(1, 256, 32, 50000)).valid());
  KernelEstimate E = kernelTime(gpu(), streaming(1e9), launch(1, 2048));
  EXPECT_FALSE(E.ok());
  EXPECT_NE(E.Error.find("2048 threads"), std::string::npos);
}

TEST(WeightedFlops, DivSqrtTranscendentalWeights) {
  KernelWork W;
  W.Flops[1] = 100;
  W.Divides[1] = 2;
  W.Sqrts[1] = 3;
  W.Transcendentals[1] = 4;
  // 100 + 20 x 2 + 20 x 3 + 16 x 4
  EXPECT_DOUBLE_EQ(weightedFlops(gpu(), W, Precision::FP32), 264);
  EXPECT_DOUBLE_EQ(weightedFlops(gpu(), W, Precision::FP64), 0);
}

TEST(Roofline, MemoryBoundFullWaves) {
  // 64 blocks of 256 threads: 8 per SM x 4 SMs = 32 per wave, 2 full waves
  // of 8,192 resident threads, each of the 16,384 moving 61,035 B (36,621 B
  // loaded: 1,145 rounds). Compute (1e8 FP64 FLOP: 0.2 ms) hides under
  // memory.
  KernelWork W = streaming(1e9);
  W.Flops[0] = 1e8;
  KernelEstimate E = kernelTime(gpu(), W, launch(64, 256));
  ASSERT_TRUE(E.ok()) << E.Error;
  EXPECT_EQ(E.Waves, 2u);
  double Tm = Tm1G * littleFactor(8192, 1e9 / 16384, 0.6e9 / 16384);
  EXPECT_DOUBLE_EQ(E.Time[CostCategory::Memory], Tm);
  EXPECT_DOUBLE_EQ(E.Time[CostCategory::Compute], 0);
  // t_launch 4 us and the device's per-kernel 1 us.
  EXPECT_DOUBLE_EQ(E.Time[CostCategory::Launch], 5 * Us);
  EXPECT_DOUBLE_EQ(E.Time.total(), 5 * Us + Tm);
}

TEST(Roofline, ComputeBound) {
  // 1e10 FP32 FLOP + 1e8 divides x 20 = 1.2e10 at 2e12 x 0.5 = 12 ms.
  KernelWork W = streaming(1e6);
  W.Flops[1] = 1e10;
  W.Divides[1] = 1e8;
  KernelEstimate E = kernelTime(gpu(), W, launch(64, 256));
  ASSERT_TRUE(E.ok()) << E.Error;
  EXPECT_DOUBLE_EQ(E.Time[CostCategory::Compute], 12e-3);
  EXPECT_DOUBLE_EQ(E.Time[CostCategory::Memory], 0);
  EXPECT_DOUBLE_EQ(E.Time.total(), 5 * Us + 12e-3);
}

TEST(Roofline, PipesOverlapWithinTheIssueRate) {
  // 1e10 FP32 flops as 5e9 FMAs and 2e9 integer operations. Without an
  // issue rate the pipes' times add: 1e10 / (2e12 x 0.5) + 2e9 / (1e12 x
  // 0.5) = 10 + 4 = 14 ms.
  KernelWork W = streaming(1e6);
  W.Flops[1] = 1e10;
  W.Fmas[1] = 5e9;
  W.IntOps = 2e9;
  GpuParams G = gpu();
  KernelEstimate Sum = kernelTime(G, W, launch(64, 256));
  ASSERT_TRUE(Sum.ok()) << Sum.Error;
  EXPECT_DOUBLE_EQ(Sum.Time[CostCategory::Compute], 14e-3);
  // Issuing 2e12 instructions a second: 7e9 instructions (an FMA is one)
  // take 7 ms at half efficiency, under the FP32 pipe's 10 ms: the integer
  // work hides beside the FMAs.
  G.PeakIssue = 2e12;
  KernelEstimate Wide = kernelTime(G, W, launch(64, 256));
  EXPECT_DOUBLE_EQ(Wide.Time[CostCategory::Compute], 10e-3);
  // Issuing 1e12 (as many instructions as FP32 flops, Hopper's ratio): the
  // issue slots bound, 14 ms.
  G.PeakIssue = 1e12;
  KernelEstimate Narrow = kernelTime(G, W, launch(64, 256));
  EXPECT_DOUBLE_EQ(Narrow.Time[CostCategory::Compute], 14e-3);
  // A division is an instruction sequence of half its weight: 1e8 divides
  // (x 20 flops) are 1e9 more instructions, 2 ms more at the issue bound.
  W.Divides[1] = 1e8;
  KernelEstimate Div = kernelTime(G, W, launch(64, 256));
  EXPECT_DOUBLE_EQ(Div.Time[CostCategory::Compute], 16e-3);
}

TEST(Roofline, MatrixWorkRunsOnTheTensorCores) {
  // 1e10 FP64 matrix flops. Without a matrix peak they run at the vector
  // FP64 peak of gpu(): 1e10 / (Peak[0] x 0.5).
  KernelWork W = streaming(1e6);
  W.MatrixFlops[0] = 1e10;
  GpuParams G = gpu();
  KernelEstimate Vector = kernelTime(G, W, launch(64, 256));
  ASSERT_TRUE(Vector.ok()) << Vector.Error;
  EXPECT_DOUBLE_EQ(Vector.Time[CostCategory::Compute],
                   1e10 / (G.Peak[0] * 0.5));
  // With tensor cores of 4e12 FLOP/s: 1e10 / (4e12 x 0.5) = 5 ms, beside
  // (not after) the vector pipes' work under the issue bound.
  G.MatrixPeak[0] = 4e12;
  KernelEstimate Tensor = kernelTime(G, W, launch(64, 256));
  EXPECT_DOUBLE_EQ(Tensor.Time[CostCategory::Compute], 5e-3);
  W.Flops[1] = 2e9; // 2 ms on the FP32 pipe
  G.PeakIssue = 1e13;
  KernelEstimate Both = kernelTime(G, W, launch(64, 256));
  EXPECT_DOUBLE_EQ(Both.Time[CostCategory::Compute], 5e-3);
  // A matrix peak below the vector one is refused by the machine-file
  // reader (test/models/malformed.test).
}

TEST(Roofline, WaveQuantization) {
  // 33 blocks: one full wave of 32 (32/33 of the work, 8,192 threads
  // resident) and a wave of 1 block: that SM's share of the work is 4/33 of
  // the total (as if every SM had one block: 1,024 threads resident).
  KernelEstimate E = kernelTime(gpu(), streaming(1e9), launch(33, 256));
  ASSERT_TRUE(E.ok()) << E.Error;
  EXPECT_EQ(E.Waves, 2u);
  double PerThread = 1e9 / (33 * 256), Loads = 0.6 * PerThread;
  EXPECT_DOUBLE_EQ(E.Time[CostCategory::Memory],
                   Tm1G * (32.0 / 33 * littleFactor(8192, PerThread, Loads) +
                           4.0 / 33 * littleFactor(1024, PerThread, Loads)));
  // One block more than a full wave costs far more than 33/32 of it.
  KernelEstimate Full = kernelTime(gpu(), streaming(1e9), launch(32, 256));
  EXPECT_GT(E.Time.total(), Full.Time.total() * 1.4);
}

TEST(Roofline, LowOccupancySlowsMemory) {
  // 96 registers: 3072 per warp -> 21 warps -> 2 blocks of 8 warps per SM:
  // 2,048 threads resident instead of 8,192, a quarter of the loads in
  // flight.
  KernelEstimate E = kernelTime(gpu(), streaming(1e9), launch(64, 256, 96));
  ASSERT_TRUE(E.ok()) << E.Error;
  EXPECT_EQ(E.Occ.BlocksPerSm, 2u);
  EXPECT_EQ(E.Waves, 8u);
  double PerThread = 1e9 / 16384, Loads = 0.6 * PerThread;
  EXPECT_DOUBLE_EQ(E.Time[CostCategory::Memory],
                   Tm1G * littleFactor(2048, PerThread, Loads));
  KernelEstimate Full = kernelTime(gpu(), streaming(1e9), launch(64, 256));
  EXPECT_GT(E.Time[CostCategory::Memory], 2 * Full.Time[CostCategory::Memory]);
}

TEST(Roofline, ActiveThreadsShrinkTheGrid) {
  // 64 blocks launched, 1000 threads pass the guard: 4 working blocks, one
  // per SM (1,024 threads resident), each active thread moving 1 MB.
  KernelWork W = streaming(1e9);
  W.ActiveThreads = 1000;
  KernelEstimate E = kernelTime(gpu(), W, launch(64, 256));
  ASSERT_TRUE(E.ok()) << E.Error;
  EXPECT_EQ(E.WorkingBlocks, 4u);
  EXPECT_EQ(E.Waves, 1u);
  EXPECT_DOUBLE_EQ(E.Time[CostCategory::Memory],
                   Tm1G * littleFactor(1024, 1e6, 6e5));
}

TEST(Roofline, PerKernelOverhead) {
  // 1 KB: one block on one SM of four does the SM's share four times over,
  // with 256 threads of 3.9 B each (one round): about one turnaround,
  // 500 ns, on top of the empty kernel's device time and t_launch.
  KernelEstimate E = kernelTime(gpu(), streaming(1000), launch(1, 256));
  ASSERT_TRUE(E.ok()) << E.Error;
  double Tm = 1000 / 0.8e12 * 4 * littleFactor(1024, 1000.0 / 256, 600.0 / 256);
  EXPECT_NEAR(Tm, 500e-9, 1e-9);
  EXPECT_NEAR(E.Time.total(), 5 * Us + Tm, 1e-15);
  KernelEstimate Empty = kernelTime(gpu(), KernelWork(), launch(1, 256));
  EXPECT_DOUBLE_EQ(Empty.Time.total(), 5 * Us);
  EXPECT_DOUBLE_EQ(Empty.Time[CostCategory::Launch], 5 * Us);
}

TEST(Roofline, LittlesLawConcurrency) {
  // 1024 blocks of 64 threads, 8 B loaded and 8 B stored per thread, 2
  // blocks per SM (dynamic shared memory: 40 KB of 100 KB): 4 SMs x 128
  // threads x 16 B in flight per turnaround of 100 + 400 ns reach
  // 16.384 GB/s; the peak is 0.8 TB/s, so the memory time is
  // T x sqrt(1 + (800 / 16.384)^2).
  KernelWork W;
  W.BytesRead = W.BytesWritten = 8 * 65536.0;
  LaunchConfig L = launch(1024, 64, 32, 40000);
  KernelEstimate E = kernelTime(gpu(), W, L);
  ASSERT_TRUE(E.ok()) << E.Error;
  EXPECT_EQ(E.Occ.BlocksPerSm, 2u);
  double Peak = 0.8e12, Reach = 4 * 128 * 16 / 500e-9;
  double T =
      16 * 65536.0 / Peak * std::sqrt(1 + (Peak / Reach) * (Peak / Reach));
  EXPECT_NEAR(E.Time[CostCategory::Memory], T, T * 1e-12);
  // A full SM reaches far more: the same bytes near the peak.
  KernelEstimate Full = kernelTime(gpu(), W, launch(1024, 64));
  EXPECT_LT(Full.Time[CostCategory::Memory], T / 10);
}

TEST(Roofline, L2ShareAndGraphNodes) {
  // All of 1 GB from L2 at 4 TB/s instead of 0.8 x 1 TB/s, with the L2's
  // latency: 16,384 threads move 61,035 B each, 36,621 B of loads in
  // ceil(36621 / 32) = 1,145 rounds of 200 ns after 100 ns; 8,192 resident
  // threads reach 8192 x 61035 B / 229.1 us.
  KernelWork W = streaming(1e9);
  W.L2Share = 1;
  KernelEstimate E = kernelTime(gpu(), W, launch(64, 256));
  ASSERT_TRUE(E.ok()) << E.Error;
  double PerThread = 1e9 / 16384;
  double Reach = 8192 * PerThread / (100e-9 + 1145 * 200e-9);
  double T = 1e9 / 4e12 * std::sqrt(1 + (4e12 / Reach) * (4e12 / Reach));
  EXPECT_NEAR(E.Time[CostCategory::Memory], T, T * 1e-9);
  // A graph's kernel node costs the device 0.5 us, not the empty kernel's.
  LaunchConfig L = launch(64, 256);
  L.InGraph = true;
  KernelEstimate G = kernelTime(gpu(), KernelWork(), L);
  EXPECT_DOUBLE_EQ(G.Time[CostCategory::Launch], 4.5 * Us);
}

TEST(Roofline, MissingPeakIsAnError) {
  GpuParams G = gpu();
  G.Peak[2] = 0;
  KernelWork W;
  W.Flops[2] = 10;
  EXPECT_FALSE(kernelTime(G, W, launch(1, 32)).ok());
}

TEST(Provenance, KernelTimeOnEstimates) {
  GpuParams G = gpu();
  KernelEstimate E = kernelTime(G, streaming(1e9), launch(64, 256));
  EXPECT_DOUBLE_EQ(E.Time.estimated(), 0);
  G.Estimates.MemoryEfficiency = true;
  G.Estimates.Launch = true;
  E = kernelTime(G, streaming(1e9), launch(64, 256));
  EXPECT_DOUBLE_EQ(E.Time.estimated(), E.Time[CostCategory::Memory] + 4 * Us);
  // The memory latency matters only to a kernel that loads.
  G = gpu();
  G.Estimates.MemoryLatency = true;
  E = kernelTime(G, streaming(1e9), launch(64, 256));
  EXPECT_DOUBLE_EQ(E.Time.estimated(), E.Time[CostCategory::Memory]);
  KernelWork Stores;
  Stores.BytesWritten = 1e9;
  EXPECT_DOUBLE_EQ(kernelTime(G, Stores, launch(64, 256)).Time.estimated(), 0);
  // Weights count only for the operations the kernel does.
  G = gpu();
  G.Estimates.Weights[1][2] = true; // fp32 transcendental
  KernelWork W;
  W.Flops[1] = 1e10;
  EXPECT_DOUBLE_EQ(kernelTime(G, W, launch(64, 256)).Time.estimated(), 0);
  W.Transcendentals[1] = 1;
  EXPECT_GT(kernelTime(G, W, launch(64, 256)).Time.estimated(), 0);
}

TEST(SingleRate, BytesOverR) {
  // R = 0.5 TB/s: 1 GB in 2 ms, plus t_launch and t_sync.
  KernelEstimate E = kernelTime(gpu(), streaming(1e9), launch(64, 256),
                                KernelModelKind::SingleRate);
  ASSERT_TRUE(E.ok()) << E.Error;
  EXPECT_DOUBLE_EQ(E.Time[CostCategory::Memory], 2e-3);
  EXPECT_DOUBLE_EQ(E.Time[CostCategory::Launch], 4 * Us);
  EXPECT_DOUBLE_EQ(E.Time[CostCategory::Sync], 2 * Us);
  EXPECT_DOUBLE_EQ(E.Time.total(), 2e-3 + 6 * Us);
}

TEST(SingleRate, FlopsOverR) {
  GpuParams G = gpu();
  G.KernelRate = 1e12;
  G.KernelRateIsBytes = false;
  KernelWork W;
  W.Flops[1] = 1e10;
  W.Divides[1] = 1e8;
  KernelEstimate E =
      kernelTime(G, W, launch(64, 256), KernelModelKind::SingleRate);
  ASSERT_TRUE(E.ok()) << E.Error;
  EXPECT_DOUBLE_EQ(E.Time[CostCategory::Compute], 1.2e-2);
  EXPECT_DOUBLE_EQ(E.Time.total(), 1.2e-2 + 6 * Us);
  // The single rate ignores the launch geometry; the roofline does not.
  KernelEstimate Small =
      kernelTime(G, W, launch(1, 256), KernelModelKind::SingleRate);
  EXPECT_DOUBLE_EQ(Small.Time.total(), E.Time.total());
}

TEST(KernelModelTest, DramBytesPreferTheFootprint) {
  using orrery::models::dramBytes;
  EXPECT_EQ(dramBytes(1600, 800), 800); // streaming: each byte once
  EXPECT_EQ(dramBytes(1600, -1), 1600); // unknown footprint: requested
  EXPECT_EQ(dramBytes(1600, 0), 0);     // nothing touched
}

namespace {

/// gpu() with an L1: 100 KiB of the 150 KiB SRAM a kernel without shared
/// memory sees, 16 TB/s for all SMs, 20 ns a hit.
GpuParams gpuWithL1() {
  GpuParams G = gpu();
  G.L1Size = 100 * 1024;
  G.L1Unified = 150 * 1024;
  G.L1Bandwidth = 16e12;
  G.L1Latency = 20e-9;
  return G;
}

/// A launch of 4 blocks of 256 threads (one per SM) that reads a
/// \p Footprint-byte buffer over and over: 1 GB requested in all; every
/// block reads all of it.
KernelWork rereads(double Footprint) {
  KernelWork W;
  W.BytesRead = Footprint;
  W.ReusedReads = 1e9 - Footprint;
  W.BlockLoadFootprint = Footprint;
  return W;
}

/// The memory time of \p W by hand: \p Tm at the peak, stretched by Little's
/// law for 1024 resident threads that wait \p Waits per turnaround.
double littleTime(const KernelWork &W, double Tm, double Waits) {
  double Bytes = W.BytesRead + W.BytesWritten + W.ReusedReads;
  double Reach = Bytes / (100e-9 + Waits); // 1024 threads, all resident
  double Peak = Bytes / Tm;
  return Tm * std::sqrt(1 + (Peak / Reach) * (Peak / Reach));
}

} // namespace

TEST(Caches, HitShareByReplacement) {
  using orrery::models::cacheHitShare;
  using orrery::models::Replacement;
  EXPECT_EQ(cacheHitShare(50, 100, Replacement::LeastRecentlyUsed), 1);
  EXPECT_EQ(cacheHitShare(100, 100, Replacement::Random), 1);
  EXPECT_EQ(cacheHitShare(101, 100, Replacement::LeastRecentlyUsed), 0);
  EXPECT_EQ(cacheHitShare(50, 0, Replacement::Random), 0); // no cache
  // Random replacement, twice the capacity: the stable root of
  // h = exp(-2 (1 - h)) below 1 (0.2032).
  double H = cacheHitShare(200, 100, Replacement::Random);
  EXPECT_NEAR(H, std::exp(-2 * (1 - H)), 1e-8);
  EXPECT_NEAR(H, 0.2032, 1e-4);
  EXPECT_LT(cacheHitShare(400, 100, Replacement::Random), H);
}

TEST(Caches, RereadsFromTheL1) {
  // 64 kB fits the 100 KiB L1: the re-reads come from there. The L1's
  // pipeline carries all 1 GB (62.5 us at 16 TB/s); device memory only the
  // footprint. Each thread loads 976,562.5 B: 30,518 rounds of 32 B, the
  // two that carry its 62.5 B from device memory at that latency, the rest
  // at the L1's.
  KernelWork W = rereads(64e3);
  KernelEstimate E = kernelTime(gpuWithL1(), W, launch(4, 256));
  ASSERT_TRUE(E.ok()) << E.Error;
  EXPECT_DOUBLE_EQ(E.L1Bytes, 1e9 - 64e3);
  EXPECT_DOUBLE_EQ(E.DramBytes, 64e3);
  double Waits = 2 * 400e-9 + 30516 * 20e-9;
  double T = littleTime(W, 1e9 / 16e12, Waits);
  EXPECT_NEAR(E.Time[CostCategory::Memory], T, T * 1e-9);
  // Without the L1 level, the same re-reads come from the L2 (64 kB fits
  // its 40 MB) at 4 TB/s and 200 ns.
  KernelEstimate NoL1 = kernelTime(gpu(), W, launch(4, 256));
  EXPECT_DOUBLE_EQ(NoL1.L2Bytes, 1e9 - 64e3);
  double T2 = littleTime(W, 64e3 / 0.8e12 + (1e9 - 64e3) / 4e12,
                         2 * 400e-9 + 30516 * 200e-9);
  EXPECT_NEAR(NoL1.Time[CostCategory::Memory], T2, T2 * 1e-9);
}

TEST(Caches, PastTheL1TheL2ThenDeviceMemory) {
  // 200 kB does not fit the L1 (least-recently-used: no hits) but fits the
  // L2; 80 MB fits neither: random replacement keeps h = 0.2032 of the
  // re-reads in the 40 MB L2, the rest come from device memory.
  KernelEstimate L2 = kernelTime(gpuWithL1(), rereads(200e3), launch(4, 256));
  EXPECT_EQ(L2.L1Bytes, 0);
  EXPECT_DOUBLE_EQ(L2.L2Bytes, 1e9 - 200e3);
  KernelWork Big = rereads(80e6);
  KernelEstimate Dram = kernelTime(gpuWithL1(), Big, launch(4, 256));
  double H = orrery::models::cacheHitShare(80e6, 40e6,
                                           orrery::models::Replacement::Random);
  EXPECT_NEAR(Dram.L2Bytes, (1e9 - 80e6) * H, 1);
  EXPECT_NEAR(Dram.DramBytes, 80e6 + (1e9 - 80e6) * (1 - H), 1);
}

TEST(Caches, SharedMemoryCarveoutShrinksTheL1) {
  // Blocks of 40 kB shared memory: two fit an SM, so the driver picks the
  // 100 KiB configuration (the smallest holding 80 kB, 79 % of 100 KiB),
  // which leaves 150 - 100 = 50 KiB of L1. A 45 kB working set still fits;
  // 60 kB no longer does (it would without shared memory).
  LaunchConfig L = launch(4, 1024, 32, 40000);
  EXPECT_GT(kernelTime(gpuWithL1(), rereads(45e3), L).L1Bytes, 0);
  EXPECT_EQ(kernelTime(gpuWithL1(), rereads(60e3), L).L1Bytes, 0);
  EXPECT_GT(kernelTime(gpuWithL1(), rereads(60e3), launch(4, 1024)).L1Bytes, 0);
}

TEST(Caches, DependentLoadsWaitALatencyEach) {
  // One block of 64 threads chases 10^5 links through a 64 kB buffer in
  // the L2 (no L1 level): 1 B per link and thread (one sector per warp),
  // each link a round at the bytes' average latency, not 32 links per
  // round of 32 B.
  KernelWork W;
  W.BytesRead = 64e3;
  W.ReusedReads = 64 * 1e5 - 64e3;
  W.DependentLoads = 64 * 1e5;
  KernelEstimate E = kernelTime(gpu(), W, launch(1, 64));
  ASSERT_TRUE(E.ok()) << E.Error;
  double Latency = (64e3 * 400e-9 + (64 * 1e5 - 64e3) * 200e-9) / (64 * 1e5);
  double Turnaround = 100e-9 + 1e5 * Latency;
  // One SM's 64 threads move 1e5 B each per turnaround: far below the peak,
  // the time is the turnaround.
  EXPECT_NEAR(E.Time[CostCategory::Memory], Turnaround, Turnaround * 1e-4);
}

TEST(Caches, UnrolledLoadsInFlight) {
  // 128 B in flight per thread (#pragma unroll) instead of 32: a quarter of
  // the rounds.
  KernelWork W = rereads(64e3);
  W.BytesInFlight = 128;
  KernelEstimate E = kernelTime(gpuWithL1(), W, launch(4, 256));
  // ceil(976562.5 / 128) = 7630 rounds, one carrying the 62.5 B from device
  // memory.
  double Waits = 400e-9 + 7629 * 20e-9;
  double T = littleTime(W, 1e9 / 16e12, Waits);
  EXPECT_NEAR(E.Time[CostCategory::Memory], T, T * 1e-9);
}

TEST(Caches, TheL1DataStageReadsWavefronts) {
  // Re-reads in the L1 whose loads conflict in its banks: 4x the requested
  // bytes pass the L1's data stage (l1_load_bytes), so its pipeline takes
  // 4x as long (1 GB requested at 16 TB/s: 62.5 us; 4 GB of wavefronts:
  // 250 us). The bytes the levels serve do not change.
  KernelWork W = rereads(64e3);
  KernelEstimate Plain = kernelTime(gpuWithL1(), W, launch(4, 256));
  W.L1Loads = 4e9;
  KernelEstimate E = kernelTime(gpuWithL1(), W, launch(4, 256));
  ASSERT_TRUE(E.ok()) << E.Error;
  EXPECT_DOUBLE_EQ(E.L1Bytes, Plain.L1Bytes);
  double Waits = 2 * 400e-9 + 30516 * 20e-9;
  double T = littleTime(W, 4e9 / 16e12, Waits);
  EXPECT_NEAR(E.Time[CostCategory::Memory], T, T * 1e-9);
}

TEST(Caches, ThreadsKeepRegistersInFlightNotSectors) {
  // Strided loads request 4x the bytes they keep (load_register_bytes): a
  // thread waits rounds of 32 B of registers, a quarter of the rounds the
  // requested bytes would make (ceil(244140.6 / 32) = 7630, the first of
  // them to device memory), not of the sectors.
  KernelWork W = rereads(64e3);
  W.LoadRegisterBytes = 1e9 / 4;
  KernelEstimate E = kernelTime(gpuWithL1(), W, launch(4, 256));
  ASSERT_TRUE(E.ok()) << E.Error;
  double Waits = 400e-9 + 7629 * 20e-9;
  double T = littleTime(W, 1e9 / 16e12, Waits);
  EXPECT_NEAR(E.Time[CostCategory::Memory], T, T * 1e-9);
}
