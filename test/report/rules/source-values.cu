// Rule: source expressions as symbolic values
// (passes/lib/kernels/SourceValues.cpp): locals followed to their value,
// `int i; i = ...;`, template arguments, min/max.
// RUN: orrery-instrument --report %s --launch 'tiles<4> grid=2 block=64 n=1000' -- %mock-cuda-flags | FileCheck %s
#include <cuda_runtime.h>

template <int K> __global__ void tiles(float *x, int n) {
  int i;
  i = blockIdx.x * blockDim.x + threadIdx.x;
  const int limit = min(n, 100);
  if (i < limit)
    for (int k = 0; k < K; ++k)
      x[i] = x[i] * 2.0f;
}
void launch(float *x) { tiles<4><<<2, 64>>>(x, 1000); }

// 128 threads, i < min(1000, 100): 100 active; K = 4 muls each: 400.
// CHECK-LABEL: hint: tiles<4>
// CHECK-NEXT: active threads: orrery_max(0, orrery_min(orrery_min(n, 100), gridDim.x * blockDim.x))
// CHECK: loop source-values.cu:12:5: constant, trip 4
// CHECK-LABEL: == Launch tiles<4>
// CHECK: threads: 128 launched, 100 active
// CHECK: flops: fp32 400, fp64 0
