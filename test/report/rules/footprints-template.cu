// Rule: footprints (passes/lib/kernels/Footprints.cpp), in a template: a
// pointer moved by its thread (`a + threadIdx.x + ...`, of a dependent type
// until instantiation) keeps its loads coalesced in the template's own hint,
// the one a launch inside another template uses.
// RUN: orrery-instrument %s -- %mock-cuda-flags 2>/dev/null | FileCheck %s
#include <cuda_runtime.h>

template <typename T> __global__ void walk(const T *a, T *c, int n) {
  const T *p = a + threadIdx.x + blockIdx.x * 256;
  T s = 0;
  for (int i = 0; i < n; i++)
    s += p[i * 256];
  c[blockIdx.x * 256 + threadIdx.x] = s;
}

template <typename T> void run(const T *a, T *c, int n) {
  walk<T><<<4, 256>>>(a, c, n);
}
void go(const float *a, float *c) { run(a, c, 8); }

// CHECK: orrery kernel cost hint: walk (
// CHECK: global load p sizeof(T) B x orrery_max(0, n), coalesced
