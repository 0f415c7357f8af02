/*===- cub/thread/thread_operators.cuh - CUB's removed functors --*- C++ -*-===*
 *
 * CCCL 3.0 (CUDA 13) removed CUB's functors cub::Sum, cub::Max, cub::Min,
 * cub::Equality, cub::Inequality, cub::Difference and cub::Division, which
 * published codes written for CUDA 11 and 12 pass to BlockReduce,
 * WarpReduce and DeviceReduce. They build with the toolkit their users
 * have; for a simulated build each name stands for the function object
 * that replaced it (libcu++'s cuda::std::plus<>, cuda::maximum<>, ...),
 * which computes the same. Found before the toolkit's header (this
 * directory comes first on the include path) and includes it.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ORRERY_CUB_THREAD_OPERATORS_CUH
#define ORRERY_CUB_THREAD_OPERATORS_CUH

#include_next <cub/thread/thread_operators.cuh>

#include <cub/version.cuh>

#if CUB_VERSION >= 300000
#include <cuda/functional>
#include <cuda/std/functional>

CUB_NAMESPACE_BEGIN
using Sum = ::cuda::std::plus<>;
using Max = ::cuda::maximum<>;
using Min = ::cuda::minimum<>;
using Equality = ::cuda::std::equal_to<>;
using Inequality = ::cuda::std::not_equal_to<>;
using Difference = ::cuda::std::minus<>;
using Division = ::cuda::std::divides<>;
CUB_NAMESPACE_END
#endif

#endif
