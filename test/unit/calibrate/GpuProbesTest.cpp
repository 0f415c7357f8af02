//===- GpuProbesTest.cpp - Fits of orrery-calibrate --gpu -----------------===//
//
// Samples made from known costs: the fits must give them back, name what is
// missing or implausible, and make a machine file that validates.
//
//===----------------------------------------------------------------------===//

#include "GpuProbes.h"
#include "MachineUpdate.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace orrery::calibrate;

namespace {

/// Latency + size / rate at sizes 8 B .. 256 MiB (doubling).
std::vector<Sample> hockney(double Latency, double Rate, double From = 8,
                            double To = 268435456) {
  std::vector<Sample> S;
  for (double N = From; N <= To; N *= 2)
    S.push_back({N, Latency + N / Rate});
  return S;
}

NamedSamples goodSamples() {
  NamedSamples S;
  S["h2d_pinned"] = hockney(8e-6, 50e9);
  S["d2h_pinned"] = hockney(9e-6, 45e9);
  S["h2d_pageable"] = hockney(10e-6, 20e9);
  S["d2h_pageable"] = hockney(11e-6, 18e9);
  S["d2d"] = hockney(3e-6, 1800e9);
  S["launch"] = {{0, 2.5e-6}};
  S["sync"] = {{0, 1.0e-6}, {0, 0.8e-6}}; // best sample wins
  S["empty_kernel"] = {{0, 1.2e-6}};
  S["event_sync"] = {{0, 1.5e-6}};
  S["triad"] = hockney(2e-6, 4.0e12, 1.5e6, 8e8);
  S["fma_fp64"] = hockney(3e-6, 30e12, 1e9, 1e12);
  S["fma_fp32"] = hockney(3e-6, 60e12, 1e9, 1e12);
  return S;
}

GpuPeaks h200Peaks() {
  GpuPeaks P;
  P.MemoryBandwidth = 4.8e12;
  P.Fp64 = 34e12;
  return P;
}

const MeasuredValue *find(const GpuCalibration &C, const std::string &Path) {
  for (const MeasuredValue &V : C.Values)
    if (V.Path == Path)
      return &V;
  return nullptr;
}

TEST(GpuProbesTest, FitsGiveBackTheCostsTheSamplesWereMadeFrom) {
  GpuCalibration C = fitGpuSamples(goodSamples(), h200Peaks(), 0.35, "test");
  EXPECT_FALSE(C.poor());
  struct Expect {
    const char *Path;
    double Value;
    const char *Unit;
  };
  for (Expect E : {Expect{"node.pcie.h2d_bandwidth", 50, "GB/s"},
                   Expect{"node.pcie.d2h_bandwidth", 45, "GB/s"},
                   Expect{"node.pcie.call_overhead", 8, "us"},
                   Expect{"node.pcie.latency", 0, "us"},
                   Expect{"gpu.overheads.launch", 2.5, "us"},
                   Expect{"gpu.overheads.sync", 0.8, "us"},
                   Expect{"gpu.overheads.empty_kernel", 1.2, "us"},
                   Expect{"gpu.memory.efficiency", 4.0 / 4.8, "ratio"},
                   Expect{"gpu.kernel_rate", 4000, "GB/s"},
                   Expect{"gpu.compute_efficiency", 30.0 / 34, "ratio"}}) {
    const MeasuredValue *V = find(C, E.Path);
    ASSERT_NE(V, nullptr) << E.Path;
    EXPECT_NEAR(V->Value, E.Value, 1e-3 * (E.Value + 1)) << E.Path;
    EXPECT_EQ(V->Unit, E.Unit) << E.Path;
    EXPECT_EQ(V->Source.rfind("test, ", 0), 0u) << V->Source;
  }
  // Pageable and device-to-device copies are printed, not written.
  EXPECT_EQ(C.Values.size(), 10u);
  bool PrintedPageable = false;
  for (const GpuFitLine &L : C.Lines)
    PrintedPageable |= L.Text.rfind("h2d_pageable band", 0) == 0;
  EXPECT_TRUE(PrintedPageable);
}

TEST(GpuProbesTest, MissingSeriesIsNamed) {
  NamedSamples S = goodSamples();
  S.erase("triad");
  S.erase("launch");
  GpuCalibration C = fitGpuSamples(S, h200Peaks(), 0.35, "test");
  EXPECT_TRUE(C.poor());
  std::string All;
  for (const GpuFitLine &L : C.Lines)
    All += L.Problem + "\n";
  EXPECT_NE(All.find("series 'triad' is missing"), std::string::npos) << All;
  EXPECT_NE(All.find("series 'launch' is missing"), std::string::npos) << All;
  EXPECT_EQ(find(C, "gpu.memory.efficiency"), nullptr);
}

TEST(GpuProbesTest, RateAbovePeakBlamesTheBaseFile) {
  GpuPeaks P = h200Peaks();
  P.MemoryBandwidth = 2e12; // triad measured 4 TB/s
  GpuCalibration C = fitGpuSamples(goodSamples(), P, 0.35, "test");
  EXPECT_TRUE(C.poor());
  std::string All;
  for (const GpuFitLine &L : C.Lines)
    All += L.Problem + "\n";
  EXPECT_NE(All.find("exceeds the base file's gpu.memory.bandwidth"),
            std::string::npos)
      << All;
}

TEST(GpuProbesTest, NoisyPrintedOnlySeriesDoesNotBlockTheFile) {
  NamedSamples S = goodSamples();
  // fp32 FMA times that do not grow with the work: a poor fit, printed.
  S["fma_fp32"] = {{1e9, 5e-3}, {2e9, 1e-3}, {4e9, 4e-3}, {8e9, 2e-3}};
  GpuCalibration C = fitGpuSamples(S, h200Peaks(), 0.35, "test");
  EXPECT_FALSE(C.poor());
}

TEST(GpuProbesTest, WrittenMachineFileValidates) {
  GpuCalibration C = fitGpuSamples(goodSamples(), h200Peaks(), 0.35, "test");
  char Dir[] = "/tmp/orrery-gpu-probes-XXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  std::string Out = std::string(Dir) + "/m.yaml", Error;
  ASSERT_TRUE(writeMachine(ORRERY_TEST_SOURCE_DIR
                           "/models/machines/h200-node.yaml",
                           Out, "", "", C.Values, Error))
      << Error;
  std::ifstream In(Out);
  std::stringstream Text;
  Text << In.rdbuf();
  EXPECT_NE(Text.str().find("kind: measured"), std::string::npos);
  std::remove(Out.c_str());
  rmdir(Dir);
}

} // namespace
