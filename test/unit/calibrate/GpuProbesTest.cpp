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
  S["peer"] = hockney(2e-6, 130e9);
  // 650 ns per dependent load.
  S["strided_chase"] = hockney(5e-6, 1 / 650e-9, 1024, 32768);
  // The stream reaches 95 % of its best rate (4.0 TB/s) at occupancy 0.5.
  S["shared_stream@0.1250"] = hockney(3e-6, 1.5e12, 64e6, 256e6);
  S["shared_stream@0.2500"] = hockney(3e-6, 2.8e12, 64e6, 256e6);
  S["shared_stream@0.5000"] = hockney(3e-6, 3.9e12, 64e6, 256e6);
  S["shared_stream@1.0000"] = hockney(3e-6, 4.0e12, 64e6, 256e6);
  S["atomic_distinct"] = hockney(2e-6, 500e9, 1e6, 1e8);
  S["atomic_contended"] = hockney(2e-6, 20e9, 1e6, 1e8);
  return S;
}

/// Everything the probe printed, problems included.
std::string allLines(const GpuCalibration &C) {
  std::string All;
  for (const GpuFitLine &L : C.Lines)
    All += L.Text + " | " + L.Problem + "\n";
  return All;
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
                   Expect{"gpu.compute_efficiency", 30.0 / 34, "ratio"},
                   Expect{"node.gpu_links.bandwidth", 130, "GB/s"},
                   Expect{"node.gpu_links.latency", 2, "us"},
                   Expect{"gpu.memory.latency", 650, "ns"}}) {
    const MeasuredValue *V = find(C, E.Path);
    ASSERT_NE(V, nullptr) << E.Path;
    EXPECT_NEAR(V->Value, E.Value, 1e-3 * (E.Value + 1)) << E.Path;
    EXPECT_EQ(V->Unit, E.Unit) << E.Path;
    EXPECT_EQ(V->Source.rfind("test, ", 0), 0u) << V->Source;
  }
  // Pageable and device-to-device copies, the occupancy sweep (Little's law
  // derives it from the latency) and atomics are printed, not written.
  EXPECT_EQ(C.Values.size(), 13u);
  EXPECT_NE(allLines(C).find("shared_stream: memory within 5% of its best "
                             "rate from occupancy 0.500"),
            std::string::npos)
      << allLines(C);
  EXPECT_NE(allLines(C).find("atomic_contended: latency"), std::string::npos)
      << allLines(C);
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

// One GPU: no peer series, which is said and blocks nothing.
TEST(GpuProbesTest, OneGpuHasNoPeerCopies) {
  NamedSamples S = goodSamples();
  S.erase("peer");
  GpuCalibration C = fitGpuSamples(S, h200Peaks(), 0.35, "test");
  EXPECT_FALSE(C.poor()) << allLines(C);
  EXPECT_EQ(find(C, "node.gpu_links.bandwidth"), nullptr);
  EXPECT_NE(allLines(C).find("peer: not measured"), std::string::npos);
}

TEST(GpuProbesTest, MissingSharedStreamIsNamed) {
  NamedSamples S = goodSamples();
  for (const char *O : {"@0.1250", "@0.2500", "@0.5000"})
    S.erase(std::string("shared_stream") + O);
  GpuCalibration C = fitGpuSamples(S, h200Peaks(), 0.35, "test");
  EXPECT_TRUE(C.poor());
  EXPECT_NE(allLines(C).find("series 'shared_stream@OCCUPANCY' is missing"),
            std::string::npos)
      << allLines(C);
}

TEST(GpuProbesTest, SaturationIsTheLowestOccupancyNearTheBestRate) {
  // Unsorted; the best rate is not at the highest occupancy.
  EXPECT_DOUBLE_EQ(
      saturationOccupancy({{1.0, 3.0}, {0.25, 3.2}, {0.125, 1.0}, {0.5, 3.3}},
                          0.95),
      0.25);
  EXPECT_DOUBLE_EQ(saturationOccupancy({{0.5, 3.0}}, 0.95), 0);
  EXPECT_DOUBLE_EQ(saturationOccupancy({}, 0.95), 0);
}

NamedSamples deviceMpiSamples() {
  NamedSamples S;
  S["mpi_hh"] = hockney(0.5e-6, 10e9, 1, 4194304);
  S["mpi_staged"] = hockney(12e-6, 8e9, 1, 4194304);
  S["mpi_dd"] = hockney(3.5e-6, 20e9, 1, 4194304);
  return S;
}

// t_call,device = t_call,host (1 us in the base) + the device buffers' extra
// small-message latency (3.5 - 0.5 us); a rate well above the program's own
// staging is a direct path.
TEST(GpuProbesTest, DeviceMpiCallOverheadAndPath) {
  GpuCalibration C = fitDeviceMpiSamples(deviceMpiSamples(), 1e-6, 0.35, "t");
  EXPECT_FALSE(C.poor()) << allLines(C);
  ASSERT_EQ(C.Values.size(), 1u);
  EXPECT_EQ(C.Values[0].Path, "mpi.call_overhead.device");
  EXPECT_NEAR(C.Values[0].Value, 4.0, 1e-3);
  EXPECT_EQ(C.Values[0].Unit, "us");
  EXPECT_NE(allLines(C).find("takes a direct path"), std::string::npos)
      << allLines(C);
}

TEST(GpuProbesTest, DeviceMpiStagedByTheLibrary) {
  NamedSamples S = deviceMpiSamples();
  S["mpi_dd"] = hockney(14e-6, 8.5e9, 1, 4194304);
  GpuCalibration C = fitDeviceMpiSamples(S, 1e-6, 0.35, "t");
  EXPECT_NE(allLines(C).find("stages through host memory itself"),
            std::string::npos)
      << allLines(C);
  EXPECT_NEAR(C.Values.at(0).Value, 1 + 13.5, 1e-3);
}

// Not CUDA-aware: no mpi_dd; said, nothing written, nothing blocked.
TEST(GpuProbesTest, DeviceMpiWithoutCudaAwareMpi) {
  NamedSamples S = deviceMpiSamples();
  S.erase("mpi_dd");
  GpuCalibration C = fitDeviceMpiSamples(S, 1e-6, 0.35, "t");
  EXPECT_FALSE(C.poor());
  EXPECT_TRUE(C.Values.empty());
  EXPECT_NE(allLines(C).find("not CUDA-aware"), std::string::npos);
}

// Device buffers faster than host ones at small sizes cannot be a call
// overhead: not written. A missing reference series is a problem.
TEST(GpuProbesTest, DeviceMpiImplausibleOrMissing) {
  NamedSamples S = deviceMpiSamples();
  S["mpi_dd"] = hockney(0.2e-6, 20e9, 1, 4194304);
  GpuCalibration C = fitDeviceMpiSamples(S, 1e-6, 0.35, "t");
  EXPECT_TRUE(C.Values.empty());
  EXPECT_NE(allLines(C).find("mpi.call_overhead.device not written"),
            std::string::npos);
  S = deviceMpiSamples();
  S.erase("mpi_hh");
  C = fitDeviceMpiSamples(S, 1e-6, 0.35, "t");
  EXPECT_TRUE(C.poor());
  EXPECT_NE(allLines(C).find("series 'mpi_hh' is missing"), std::string::npos);
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
