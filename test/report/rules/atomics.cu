// Rule: atomics (passes/lib/kernels/Atomics.cpp): address classes.
// RUN: orrery-instrument --report %s --launch 'classes grid=8 block=128' -- %mock-cuda-flags | FileCheck %s
#include <cuda_runtime.h>

__global__ void classes(float *sum, float *per_block, int *bins,
                        const int *keys, float *each) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(sum, 1.0f);
  atomicAdd(&per_block[blockIdx.x], 1.0f);
  atomicAdd(&bins[keys[i]], 1);
  atomicAdd(&each[i], 1.0f);
}

// CHECK-LABEL: hint: classes
// CHECK: global atomic sum 4 B x 1, uniform, address same_for_grid
// CHECK: global atomic per_block 4 B x 1, uniform, address same_per_block
// CHECK: global atomic bins 4 B x 1, indirect, address indirect
// CHECK: global atomic each 4 B x 1, coalesced, address distinct
// 1024 threads x 4 atomics; sum and per_block (2 x 1024) to shared addresses.
// CHECK-LABEL: == Launch classes
// CHECK: atomics: 4096 (2048 to a shared address)
