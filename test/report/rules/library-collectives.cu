// Rule: library collectives (passes/lib/kernels/LibraryCollectives.cpp): CUB
// block and warp reduce/scan and cooperative groups' reduce and shuffles are
// charged by their algorithm, not walked (their bodies are inline PTX and
// template meta-recursion: INLINE_ASM, RECURSION).
// REQUIRES: cuda-toolkit
// RUN: orrery-instrument --report %s -- -std=c++17 %cuda-flags -isystem %cuda-path/include/cccl \
// RUN:   | FileCheck %s --implicit-check-not=RECURSION --implicit-check-not=INLINE_ASM --implicit-check-not=UNKNOWN_CALL
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>

namespace cg = cooperative_groups;

__global__ void warp_sum(const float *x, float *out) {
  typedef cub::WarpReduce<float> WR;
  __shared__ typename WR::TempStorage tmp[4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = WR(tmp[threadIdx.x / 32]).Sum(x[i]);
}
// 32 lanes: log2(32) = 5 shuffle steps, each one fp32 add.
// CHECK-LABEL: hint: warp_sum
// CHECK: fp32: add 5, mul 0, fma 0, div 0, sqrt 0, transc 0 (flops 5)

__global__ void half_warp_sum(const float *x, float *out) {
  typedef cub::WarpReduce<float, 16> WR;
  __shared__ typename WR::TempStorage tmp[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = WR(tmp[threadIdx.x / 16]).Sum(x[i]);
}
// A logical warp of 16 lanes: log2(16) = 4 steps.
// CHECK-LABEL: hint: half_warp_sum
// CHECK: fp32: add 4, mul 0, fma 0, div 0, sqrt 0, transc 0 (flops 4)

__global__ void block_sum(const double *x, double *out) {
  typedef cub::BlockReduce<double, 128> BR;
  __shared__ typename BR::TempStorage tmp;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double s = BR(tmp).Sum(x[i]);
  out[i] = s;
}
// The warp step on every thread (5 fp64 adds), one __syncthreads.
// CHECK-LABEL: hint: block_sum
// CHECK: fp64: add 5, mul 0, fma 0, div 0, sqrt 0, transc 0 (flops 5)
// CHECK: __syncthreads: 1

__global__ void block_scan(const float *x, float *out) {
  typedef cub::BlockScan<float, 256> BS;
  __shared__ typename BS::TempStorage tmp;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v;
  BS(tmp).InclusiveSum(x[i], v);
  out[i] = v;
}
// The warp scan (5 adds), one __syncthreads, the warp's prefix (1 add).
// CHECK-LABEL: hint: block_scan
// CHECK: fp32: add 6, mul 0, fma 0, div 0, sqrt 0, transc 0 (flops 6)
// CHECK: __syncthreads: 1

__global__ void group_sum(const float *x, float *out) {
  cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = cg::reduce(t, x[i], cg::plus<float>()) + t.shfl_down(x[i], 1);
}
// A 16-lane tile: 4 steps (4 adds, 4 shuffles), then one more add (`+`)
// and one shuffle.
// CHECK-LABEL: hint: group_sum
// CHECK: fp32: add 5, mul 0, fma 0, div 0, sqrt 0, transc 0 (flops 5)
