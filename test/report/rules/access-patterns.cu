// Rule: memory access patterns (passes/lib/kernels/AccessPatterns.cpp):
// the index's threadIdx.x coefficient, the space, the element size.
// RUN: orrery-instrument --report %s -- %mock-cuda-flags | FileCheck %s
#include <cuda_runtime.h>

__global__ void patterns(const float *a, const float4 *v, const int *idx,
                         float *out, int s) {
  __shared__ float tile[32][32];
  volatile float *t = &tile[0][0];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float r = a[i] + a[s * i] + a[0] + a[idx[i]] + v[i].x;
  tile[threadIdx.x][0] = r;
  t[threadIdx.x] = r;
  out[i] = r;
}

// a[i] coalesced; a[s*i] strided by s; a[0] uniform; a[idx[i]] indirect;
// v[i] a 16-byte coalesced load; tile[threadIdx.x][0] strides 32 words:
// 32-way bank conflicts; t points into tile: shared, not global.
// CHECK-LABEL: hint: patterns
// CHECK: global load a 4 B x 1, coalesced
// CHECK: global load a 4 B x 1, strided(s)
// CHECK: global load a 4 B x 1, uniform
// CHECK: global load a 4 B x 1, indirect
// CHECK: global load v 16 B x 1, coalesced
// CHECK: shared store tile 4 B x 1, strided(32)
// CHECK-NOT: global store t
// CHECK: shared memory: 4096 B static per block, bank conflicts 32-way
