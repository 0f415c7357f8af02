// Rule: footprints (passes/lib/kernels/Footprints.cpp): the distinct bytes a
// launch and one block touch, bounded by the buffers the pointer arguments
// point into; pointers moved by their thread; dependent loads; unrolled
// loops.
// RUN: orrery-instrument --report %s --no-ptxas \
// RUN:   --launch 'repeat grid=108 block=256 n=4096 reps=100 bytes(b)=32768' \
// RUN:   --launch 'repeat grid=108 block=256 n=4096 reps=100' \
// RUN:   --launch 'chase grid=1 block=64 steps=1000 bytes(buf)=65536' \
// RUN:   --launch 'slices grid=1000 block=256 n=64 runs=10 bytes(in)=1310720' \
// RUN:   -- %mock-cuda-flags | FileCheck %s
#include <cuda_runtime.h>

// Every block reads the same n doubles reps times; `b += threadIdx.x` makes
// the loads coalesced.
__global__ void repeat(double *out, const double *b, int n, int reps) {
  double sum = 0;
  b += threadIdx.x;
  for (int r = 0; r < reps; r++) {
#pragma unroll 8
    for (int i = 0; i < n; i += 256)
      sum += b[i];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// CHECK-LABEL: hint: repeat
// The inner loop's test and step run once per 8 trips.
// CHECK: int ops: {{.*}} / 8 +
// CHECK: global load b 8 B x {{.*}}, coalesced
// 108 x 256 threads x 100 x 16 loads x 8 B requested; the buffer holds 32 kB,
// which every block reads alike: footprint and one block's loads are it.
// CHECK-LABEL: == Launch repeat
// CHECK: bytes loaded: 353894400 requested, 32768 footprint
// CHECK: re-reads: 353861632 bytes loaded again; one block loads 32768 distinct bytes
// 8 unrolled trips of one 8-byte load.
// CHECK: loads in flight: 64 bytes per thread (#pragma unroll)
// Without the buffer's size (known at run time) the footprint is not derived.
// CHECK-LABEL: == Launch repeat
// CHECK: bytes loaded: 353894400 requested, n/a footprint

// A pointer chase: each load's address is what the one before returned.
__global__ void chase(long long *buf, long long *sink, int steps) {
  long long *p = buf;
  for (int s = 0; s < steps; s++)
    p = (long long *)*p;
  if (threadIdx.x > 12313)
    sink[0] = (long long)p;
}

// CHECK-LABEL: == Launch chase
// 64 threads x 1000 uniform loads: one 32-byte sector per warp, 1 B a lane.
// CHECK: bytes loaded: 64000 requested, 64000 footprint
// CHECK: dependent loads: 64000 (an address an earlier load returned: one latency each)

// Blocks read slices by blockIdx: one block's loads are its requests (the
// loop walks on through the data), at most the footprint.
__global__ void slices(double *out, const double *in, int n, int runs) {
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += in[(i * runs + blockIdx.x % runs) * 256 + threadIdx.x];
  out[blockIdx.x * 256 + threadIdx.x] = sum;
}

// 1000 x 256 threads x 64 x 8 B = 131 MB requested of a 1.31 MB buffer; one
// block requests 256 x 64 x 8 = 131072 B.
// CHECK-LABEL: == Launch slices
// CHECK: bytes loaded: 131072000 requested, 1310720 footprint
// CHECK: re-reads: 129761280 bytes loaded again; one block loads 131072 distinct bytes
