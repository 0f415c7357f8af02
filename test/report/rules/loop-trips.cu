// Rule: loop trips (passes/lib/kernels/LoopTrips.cpp): the mean trip per
// active thread (exact launch totals) and the per-thread maximum.
// RUN: orrery-instrument --report %s \
// RUN:   --launch 'grid_stride grid=2 block=128 n=1000' \
// RUN:   --launch 'block_stride grid=3 block=64 m=100' \
// RUN:   --launch 'doubling grid=1 block=256' \
// RUN:   --launch 'counted grid=1 block=32 k=7' \
// RUN:   -- %mock-cuda-flags | FileCheck %s
#include <cuda_runtime.h>

__global__ void grid_stride(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    x[i] = 2.0f * x[i];
}
__global__ void block_stride(float *x, int m) {
  for (int k = threadIdx.x; k < m; k += blockDim.x)
    x[blockIdx.x * m + k] = 2.0f * x[blockIdx.x * m + k];
}
__global__ void doubling(float *x) {
  for (int s = 1; s < blockDim.x; s *= 2)
    x[threadIdx.x] = 2.0f * x[threadIdx.x];
}
__global__ void counted(float *x, int k) {
  int j = 0;
  while (j < k) {
    x[threadIdx.x] = 2.0f * x[threadIdx.x];
    j = j + 1;
  }
  for (int s = 100; s >= 3; s /= 3)
    x[threadIdx.x] = 2.0f * x[threadIdx.x];
}

// CHECK-LABEL: hint: grid_stride
// CHECK: loop loop-trips.cu:12:3: grid_stride, trip orrery_max(0, n) / orrery_max(0, orrery_min(n, gridDim.x * blockDim.x))  (per-thread max orrery_ceil_div(orrery_max(0, n), blockDim.x * gridDim.x))
// CHECK-LABEL: hint: block_stride
// CHECK: loop loop-trips.cu:17:3: block_stride, trip orrery_max(0, m) / blockDim.x
// s = 1, 2, 4, ... below blockDim.x: floor(log2(blockDim.x - 1)) + 1 steps.
// CHECK-LABEL: hint: doubling
// CHECK: loop loop-trips.cu:21:3: symbolic, trip orrery_halving_trips((blockDim.x - 1))
// j = j + 1 up to k: k trips; s = 100, 33, 11, 3 (>= 3): 4 trips.
// CHECK-LABEL: hint: counted
// CHECK: loop loop-trips.cu:26:3: symbolic, trip orrery_max(0, k)
// CHECK: loop loop-trips.cu:30:3: constant, trip 4
// CHECK-NOT: UNKNOWN_TRIP
// 256 threads over n = 1000: exactly 1000 muls (ceil(1000/256) = 4 on
// every thread would be 1024).
// CHECK-LABEL: == Launch grid_stride
// CHECK: flops: fp32 1000, fp64 0
// 3 blocks x m = 100 elements: 300 muls.
// CHECK-LABEL: == Launch block_stride
// CHECK: flops: fp32 300, fp64 0
// blockDim.x = 256: s = 1..128, 8 steps, 256 threads: 2048 muls.
// CHECK-LABEL: == Launch doubling
// CHECK: flops: fp32 2048, fp64 0
// 32 threads x (7 + 4) = 352.
// CHECK-LABEL: == Launch counted
// CHECK: flops: fp32 352, fp64 0
