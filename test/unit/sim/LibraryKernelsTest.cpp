//===- LibraryKernelsTest.cpp - thrust/CUB kernels by a library model -----===//

#include "gpu/LibraryKernels.h"

#include <gtest/gtest.h>

using namespace orrery;

namespace {

// Stub names as CUDA 13's thrust::reduce and thrust::sequence instantiate
// them (demangled, CUB 3.0).
const char *ReduceStub =
    "void cub::CUB_300001_SM_520::detail::reduce::__device_stub__"
    "DeviceReduceKernel<cub::CUB_300001_SM_520::detail::reduce::policy_hub<"
    "double, unsigned int, cuda::std::__4::plus<double> >::Policy1000, "
    "thrust::THRUST_300001_SM_520_NS::detail::normal_iterator<thrust::"
    "THRUST_300001_SM_520_NS::device_ptr<double> >, unsigned int, cuda::std::"
    "__4::plus<double>, double, cuda::std::__4::__identity>(thrust::THRUST_"
    "300001_SM_520_NS::detail::normal_iterator<thrust::THRUST_300001_SM_520_"
    "NS::device_ptr<double> >, double*, unsigned int, cub::CUB_300001_SM_520::"
    "GridEvenShare<unsigned int>, cuda::std::__4::plus<double>, cuda::std::"
    "__4::__identity)";
const char *TabulateStub =
    "void cub::CUB_300001_SM_520::detail::for_each::__device_stub__static_"
    "kernel<cub::CUB_300001_SM_520::detail::for_each::policy_hub_t::policy_"
    "500_t, long, thrust::THRUST_300001_SM_520_NS::cuda_cub::__tabulate::"
    "functor<thrust::THRUST_300001_SM_520_NS::detail::normal_iterator<thrust::"
    "THRUST_300001_SM_520_NS::device_ptr<double> >, thrust::THRUST_300001_SM_"
    "520_NS::system::detail::generic::detail::compute_sequence_value<double, "
    "void>, long> >(long, thrust::THRUST_300001_SM_520_NS::cuda_cub::__"
    "tabulate::functor<thrust::THRUST_300001_SM_520_NS::detail::normal_"
    "iterator<thrust::THRUST_300001_SM_520_NS::device_ptr<double> >, thrust::"
    "THRUST_300001_SM_520_NS::system::detail::generic::detail::compute_"
    "sequence_value<double, void>, long>)";

} // namespace

TEST(LibraryModel, ReduceReadsItsItemsOnce) {
  unsigned N = 1 << 20;
  void *Args[] = {nullptr, nullptr, &N, nullptr, nullptr, nullptr};
  auto L = sim::libraryModel(ReduceStub, Args, {264, 1, 1}, {256, 1, 1});
  ASSERT_TRUE(L);
  EXPECT_EQ(L->Name, "thrust::reduce (cub DeviceReduceKernel, library model)");
  ASSERT_TRUE(L->Counts);
  const orrery_kernel_counts &C = *L->Counts;
  double Threads = 264 * 256;
  EXPECT_DOUBLE_EQ(C.active_threads, Threads);
  // 2^20 doubles read once, nothing written back but the partials; one
  // fp64 add per item.
  EXPECT_DOUBLE_EQ(C.load_footprint, 8.0 * N);
  EXPECT_DOUBLE_EQ(C.load_bytes * Threads, 8.0 * N);
  EXPECT_DOUBLE_EQ(C.store_footprint, 0);
  EXPECT_DOUBLE_EQ(C.fp64_add * Threads, N);
  EXPECT_EQ(C.confidence, ORRERY_CONFIDENCE_DEFAULTED);
  EXPECT_DOUBLE_EQ(C.measured_seconds, -1);
}

TEST(LibraryModel, SequenceWritesItsItems) {
  long N = 1 << 20;
  void *Args[] = {&N, nullptr};
  auto L = sim::libraryModel(TabulateStub, Args, {4096, 1, 1}, {256, 1, 1});
  ASSERT_TRUE(L && L->Counts);
  EXPECT_EQ(L->Name, "thrust::tabulate (thrust::sequence) (cub "
                     "for_each::static_kernel, library model)");
  EXPECT_DOUBLE_EQ(L->Counts->store_footprint, 8.0 * N);
  EXPECT_DOUBLE_EQ(L->Counts->load_footprint, 0);
}

TEST(LibraryModel, UnknownKernelsAndUnreadableCounts) {
  EXPECT_FALSE(sim::libraryModel("void __device_stub__mine(float*)", nullptr,
                                 {1, 1, 1}, {32, 1, 1}));
  // Named, but without its arguments there is nothing to charge.
  auto L = sim::libraryModel(ReduceStub, nullptr, {1, 1, 1}, {32, 1, 1});
  ASSERT_TRUE(L);
  EXPECT_FALSE(L->Counts);
}
