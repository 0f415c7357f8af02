//===- DeviceExecutorTest.cpp - Measured durations into simulated time ----===//
//
// Twin mode's logic without a GPU: a fake executor stands for the real one.
//
//===----------------------------------------------------------------------===//

#include "gpu/DeviceExecutor.h"

#include <gtest/gtest.h>

using namespace orrery::sim;

namespace {

/// Reports the durations it was given, as the twin executor reports what
/// CUDA events measured; counts the calls.
class FakeExecutor final : public DeviceExecutor {
public:
  explicit FakeExecutor(double Seconds, int Error = 0)
      : Seconds(Seconds), Error(Error) {}
  bool real() const override { return true; }
  void *allocate(std::size_t, RealMemory) override { return &Storage; }
  void release(void *, RealMemory) override {}
  Measurement launch(const void *, orrery_dim3, orrery_dim3, void **,
                     std::size_t) override {
    return measure();
  }
  Measurement copy(void *, std::size_t, const void *, std::size_t, std::size_t,
                   std::size_t, int) override {
    return measure();
  }
  Measurement copySymbol(bool, const void *, void *, std::size_t,
                         std::size_t) override {
    return measure();
  }
  Measurement set(void *, int, std::size_t) override { return measure(); }
  int Calls = 0;

private:
  Measurement measure() {
    ++Calls;
    Measurement M;
    if (Error) {
      M.Error = Error;
      M.What = "cudaLaunchKernel: too many resources requested";
      return M;
    }
    M.Ran = true;
    M.Seconds = Seconds;
    return M;
  }
  double Seconds;
  int Error;
  char Storage = 0;
};

LaunchCost modelOf(double Compute, double Memory, bool Estimate) {
  LaunchCost C;
  C.Launch = 4e-6;
  C.Compute = Compute;
  C.Memory = Memory;
  C.Estimate = Estimate;
  return C;
}

double partOf(const DeviceCharge &C, Category Cat) {
  double S = 0;
  for (auto [K, V] : C.Parts)
    if (K == Cat)
      S += V;
  return S;
}

TEST(DeviceExecutorTest, SkeletonKeepsTheModelsTime) {
  ModelledExecutor E;
  EXPECT_FALSE(E.real());
  DeviceCharge C =
      kernelCharge(modelOf(1e-3, 3e-3, true),
                   E.launch(nullptr, {1, 1, 1}, {32, 1, 1}, nullptr, 0));
  EXPECT_FALSE(C.Measured);
  EXPECT_TRUE(C.Estimate);
  EXPECT_DOUBLE_EQ(C.Seconds, 4e-3);
  EXPECT_DOUBLE_EQ(partOf(C, Category::KernelCompute), 1e-3);
  EXPECT_DOUBLE_EQ(partOf(C, Category::KernelMemory), 3e-3);
  // The larger part names the kernel in the timeline.
  EXPECT_EQ(C.Parts[0].first, Category::KernelMemory);
}

TEST(DeviceExecutorTest, MeasuredDurationReplacesTheModelsInItsProportion) {
  FakeExecutor E(2e-3);
  DeviceCharge C =
      kernelCharge(modelOf(3e-3, 1e-3, true),
                   E.launch(nullptr, {1, 1, 1}, {32, 1, 1}, nullptr, 0));
  EXPECT_EQ(E.Calls, 1);
  EXPECT_TRUE(C.Measured);
  EXPECT_FALSE(C.Estimate); // a measurement rests on no estimate
  EXPECT_DOUBLE_EQ(C.Seconds, 2e-3);
  EXPECT_DOUBLE_EQ(partOf(C, Category::KernelCompute), 1.5e-3);
  EXPECT_DOUBLE_EQ(partOf(C, Category::KernelMemory), 0.5e-3);
  EXPECT_EQ(C.Parts[0].first, Category::KernelCompute);
}

TEST(DeviceExecutorTest, KernelWithoutModelTimeIsChargedToMemory) {
  FakeExecutor E(7e-6); // a kernel launched without a cost hint
  DeviceCharge C = kernelCharge(
      modelOf(0, 0, true), E.launch(nullptr, {1, 1, 1}, {1, 1, 1}, nullptr, 0));
  EXPECT_DOUBLE_EQ(C.Seconds, 7e-6);
  EXPECT_DOUBLE_EQ(partOf(C, Category::KernelMemory), 7e-6);
  EXPECT_DOUBLE_EQ(partOf(C, Category::KernelCompute), 0);
}

TEST(DeviceExecutorTest, NegativeMeasurementIsChargedAsZero) {
  Measurement M;
  M.Ran = true;
  M.Seconds = -1e-6;
  DeviceCharge C = kernelCharge(modelOf(1e-3, 1e-3, false), M);
  EXPECT_DOUBLE_EQ(C.Seconds, 0);
  EXPECT_DOUBLE_EQ(partOf(C, Category::KernelCompute) +
                       partOf(C, Category::KernelMemory),
                   0);
}

TEST(DeviceExecutorTest, FailedOperationReportsTheCall) {
  FakeExecutor E(1, /*Error=*/7);
  Measurement M = E.launch(nullptr, {1, 1, 1}, {2048, 1, 1}, nullptr, 0);
  EXPECT_FALSE(M.Ran);
  EXPECT_EQ(M.Error, 7);
  EXPECT_NE(M.What.find("cudaLaunchKernel"), std::string::npos);
}

TEST(DeviceExecutorTest, CopiesStayModelledUnlessAskedAndMeasured) {
  FakeExecutor E(3e-6);
  Measurement M = E.copy(nullptr, 8, nullptr, 8, 8, 1, 1);
  EXPECT_FALSE(chargesMeasuredCopy(CopyTiming::Modelled, M));
  EXPECT_TRUE(chargesMeasuredCopy(CopyTiming::Measured, M));
  EXPECT_FALSE(chargesMeasuredCopy(CopyTiming::Measured, Measurement()));
  DeviceCharge C = measuredCopyCharge(M);
  EXPECT_TRUE(C.Measured);
  EXPECT_DOUBLE_EQ(C.Seconds, 3e-6);
  EXPECT_EQ(C.Parts[0].first, Category::Copies);
  EXPECT_DOUBLE_EQ(C.Parts[0].second, 3e-6);
}

TEST(DeviceExecutorTest, ParsesCopyTiming) {
  CopyTiming T = CopyTiming::Measured;
  std::string Error;
  EXPECT_TRUE(parseCopyTiming(nullptr, T, Error));
  EXPECT_EQ(T, CopyTiming::Modelled);
  EXPECT_TRUE(parseCopyTiming("measured", T, Error));
  EXPECT_EQ(T, CopyTiming::Measured);
  EXPECT_TRUE(parseCopyTiming("modelled", T, Error));
  EXPECT_EQ(T, CopyTiming::Modelled);
  EXPECT_FALSE(parseCopyTiming("measure", T, Error));
  EXPECT_NE(Error.find("ORRERY_TWIN_COPIES is 'measure'"), std::string::npos);
  EXPECT_NE(Error.find("'measured'"), std::string::npos);
}

TEST(DeviceExecutorTest, InstalledFactoryIsUsedOnFirstUseOnly) {
  int Made = 0;
  installDeviceExecutor([&Made] {
    ++Made;
    return std::make_unique<FakeExecutor>(1e-6);
  });
  EXPECT_EQ(Made, 0); // nothing created (no GPU looked for) until used
  DeviceExecutor &A = deviceExecutor();
  DeviceExecutor &B = deviceExecutor();
  EXPECT_EQ(&A, &B);
  EXPECT_EQ(Made, 1);
  EXPECT_TRUE(A.real());
  installDeviceExecutor(nullptr); // back to skeleton mode's
  EXPECT_FALSE(deviceExecutor().real());
}

} // namespace
