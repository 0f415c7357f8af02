// Rule: thread guards (passes/lib/kernels/ThreadGuards.cpp, ThreadRanges.cpp).
// Bounds on a thread coordinate are solved for it; the active threads of
// each launch below (4 x 256 = 1024 threads unless said) are derived by
// hand next to their checks.
// RUN: orrery-instrument --report %s \
// RUN:   --launch 'lower_upper grid=4 block=256 n=1000' \
// RUN:   --launch 'gt_le grid=4 block=256 n=1000' \
// RUN:   --launch 'ne_point grid=4 block=256 n=1000' \
// RUN:   --launch 'stride3 grid=4 block=256 n=1000' \
// RUN:   --launch 'block_guard grid=10 block=64 nb=4' \
// RUN:   --launch 'negated grid=4 block=256 n=1000' \
// RUN:   --launch 'in_block grid=4 block=256 n=1000' \
// RUN:   --launch 'boundary grid=4 block=256 n=1000' \
// RUN:   -- %mock-cuda-flags | FileCheck %s
#include <cuda_runtime.h>

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

__global__ void lower_upper(float *x, int n) {
  int i = GID;
  if (i >= 8 && i < n - 8)
    x[i] = 0;
}
__global__ void gt_le(float *x, int n) {
  int i = GID;
  if (i > 2 && i <= n)
    x[i] = 0;
}
__global__ void ne_point(float *x, int n) {
  int i = GID;
  if (i < n && i != 500)
    x[i] = 0;
}
__global__ void stride3(float *x, int n) {
  int i = 3 * GID + 2;
  if (i < n)
    x[i] = 0;
}
__global__ void block_guard(float *x, int nb) {
  if (blockIdx.x < nb)
    x[blockIdx.x * blockDim.x + threadIdx.x] = 0;
}
__global__ void negated(float *x, int n) {
  int i = GID;
  if (!(i >= 1 && i < n))
    return;
  x[i] = 0;
}
// After work, a guard is a branch: the fraction of the threads that pass.
__global__ void in_block(float *x, int n) {
  int i = GID;
  float v = x[i] * 2.0f;
  if (threadIdx.x >= 64 && threadIdx.x < 192)
    x[i] = v;
}
// A disjunction: one minus the fraction that passes its negation.
__global__ void boundary(float *x, int n) {
  int i = GID;
  float v = x[i];
  if (i < 1 || i >= n - 1)
    x[i] = 0;
  else
    x[i] = v * 0.5f;
}

// Neither branch on thread coordinates falls back to a probability.
// CHECK-LABEL: hint: in_block
// CHECK-NOT: BRANCH_PROB
// CHECK-LABEL: hint: boundary
// CHECK-NOT: BRANCH_PROB

// i in [8, n - 8): 1000 - 16 = 984.
// CHECK-LABEL: == Launch lower_upper
// CHECK: threads: 1024 launched, 984 active
// i in (2, n] and below 1024: 3..1000 = 998.
// CHECK-LABEL: == Launch gt_le
// CHECK: threads: 1024 launched, 998 active
// i in [0, n) but 500: 999.
// CHECK-LABEL: == Launch ne_point
// CHECK: threads: 1024 launched, 999 active
// 3g + 2 < 1000 <=> g < ceil(998 / 3) = 333.
// CHECK-LABEL: == Launch stride3
// CHECK: threads: 1024 launched, 333 active
// 4 of 10 blocks of 64 threads: 256.
// CHECK-LABEL: == Launch block_guard
// CHECK: threads: 640 launched, 256 active
// The complement of 1 <= i < n returns: 999.
// CHECK-LABEL: == Launch negated
// CHECK: threads: 1024 launched, 999 active
// 128 of each block's 256 threads store: 4 x 128 x 4 B = 2048 B; no
// branch probability.
// CHECK-LABEL: == Launch in_block
// CHECK: threads: 1024 launched, 1024 active
// CHECK: bytes stored: 2048 requested
// Threads 0 and 999..1023 (26) store 0, threads 1..998 (998) multiply and
// store: 998 flops, (26 + 998) x 4 B stored; no branch probability.
// CHECK-LABEL: == Launch boundary
// CHECK: threads: 1024 launched, 1024 active
// CHECK-NEXT: flops: fp32 998, fp64 0
// CHECK: bytes stored: 4096 requested
