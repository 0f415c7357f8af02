// Rule: if and switch (passes/lib/kernels/Branches.cpp).
// RUN: orrery-instrument --report %s \
// RUN:   --launch 'by_arg grid=1 block=100 mode=2' \
// RUN:   --launch 'by_arg grid=1 block=100 mode=7' \
// RUN:   -- %mock-cuda-flags | FileCheck %s
#include <cuda_runtime.h>

// A switch on an argument: the taken case, with fall-through from 1 to 2.
__global__ void by_arg(float *x, int mode) {
  int i = threadIdx.x;
  switch (mode) {
  case 1:
    x[i] = x[i] * 2.0f;
  case 2:
    x[i] = x[i] + 1.0f;
    break;
  default:
    x[i] = x[i] / 3.0f;
  }
}
// A switch on a value read from memory: every case, with a warning.
__global__ void by_data(float *x, const int *m) {
  switch (m[threadIdx.x]) {
  case 0:
    x[threadIdx.x] = 0;
    break;
  }
}
// A data-dependent if: 0.5 with a warning; a bool argument: itself.
__global__ void data_if(float *x, bool twice) {
  if (x[threadIdx.x] > 0)
    x[threadIdx.x] = x[threadIdx.x] * 2.0f;
  if (twice)
    x[threadIdx.x] = x[threadIdx.x] * 2.0f;
}

// CHECK-LABEL: hint: by_arg
// CHECK-NOT: SWITCH
// CHECK-LABEL: hint: by_data
// CHECK: warning SWITCH branches.cu:23:3: switch on a value that is not launch-uniform
// CHECK-LABEL: hint: data_if
// CHECK: fp32: add 0, mul (twice + 0.5)
// CHECK: warning BRANCH_PROB branches.cu:31:3
// mode = 2: the add only: 100 flops.
// CHECK-LABEL: == Launch by_arg
// CHECK: flops: fp32 100, fp64 0
// CHECK-NOT: fp32 div
// mode = 7: the default: 100 divisions, no flops.
// CHECK-LABEL: == Launch by_arg
// CHECK: flops: fp32 0, fp64 0
// CHECK-NEXT: fp32 div 100, sqrt 0, transcendental 0
