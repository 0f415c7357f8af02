// Kernels the analysis cannot fully understand still instrument correctly,
// and say why they fall back: recursion, calls through function pointers,
// inline PTX, device-side launches.
// RUN: orrery-instrument --report %s -- %mock-cuda-flags -fgpu-rdc | FileCheck %s
// RUN: orrery-instrument --quiet %s -o %t.cu -- %mock-cuda-flags -fgpu-rdc
// RUN: %clangxx -fsyntax-only -fgpu-rdc %mock-cuda-flags -I %hooks-include %t.cu
#include <cuda_runtime.h>

__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__global__ void recursive(int *out) { out[threadIdx.x] = fact(threadIdx.x); }

typedef float (*op_t)(float);
__global__ void through_pointer(op_t op, float *x) { x[threadIdx.x] = op(x[threadIdx.x]); }

__global__ void with_ptx(unsigned *out) {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[threadIdx.x] = lane;
}

__global__ void child(float *x) {}
__global__ void parent(float *x) { child<<<1, 32>>>(x); }

void host(int *o, unsigned *u, float *x, op_t f) {
  recursive<<<1, 32>>>(o);
  through_pointer<<<1, 32>>>(f, x);
  with_ptx<<<1, 32>>>(u);
}

// CHECK-LABEL: hint: recursive (fallback.cu:10:17), confidence unknown
// CHECK: warning RECURSION fallback.cu:9:{{[0-9]+}}: recursive call to 'fact'; its cost is unknown
// CHECK-LABEL: hint: through_pointer (fallback.cu:13:17), confidence unknown
// CHECK: warning INDIRECT_CALL fallback.cu:13:{{[0-9]+}}: call through a function pointer; its cost is unknown
// CHECK-LABEL: hint: with_ptx (fallback.cu:15:17), confidence unknown
// CHECK: warning INLINE_ASM fallback.cu:17:3: inline PTX/assembly; its cost is unknown
// CHECK-LABEL: hint: parent (fallback.cu:22:17), confidence unknown
// CHECK: warning DYNAMIC_PARALLELISM fallback.cu:22:36: device-side launch; the child kernel is not counted
