// Rule: the compiler's own unrolling (Analyzer::defaultUnroll): an innermost
// loop without a pragma tests and steps its counter once per 4 trips where
// four copies of a small body fit LLVM's partial-unroll budget (nvcc's NVVM
// and clang alike), once per 2 for a larger body, every trip for a body
// larger still; a small constant-trip loop is unrolled fully (no test, no
// step); a loop with a loop inside is not unrolled.
// RUN: orrery-instrument --report %s --no-ptxas -- %mock-cuda-flags | FileCheck %s
#include <cuda_runtime.h>

// Two FMAs a trip: the test (1) and the step (1) run n / 4 times.
__global__ void small_body(float *out, const float *a, int n) {
  float v = a[threadIdx.x], w = v;
  for (int j = 0; j < n; j++) {
    v = v * 1.5f - 0.5f;
    w = w * 0.5f + 1.5f;
  }
  out[threadIdx.x] = v + w;
}
// CHECK-LABEL: hint: small_body
// CHECK: int ops: 2 * orrery_max(0, n) / 4

// Eight trips of a small body: unrolled fully, no loop control.
__global__ void constant_trip(float *out, const float *a) {
  float v = a[threadIdx.x];
  for (int j = 0; j < 8; j++)
    v = v * 1.5f - 0.5f;
  out[threadIdx.x] = v;
}
// CHECK-LABEL: hint: constant_trip
// CHECK: int ops: 0

// A body of about 30 operations (12 subscripts, 6 products, 5 index sums, 6
// sums and the +=): two copies fit the budget of 75, four do not.
__global__ void larger_body(float *out, const float *a, const float *b,
                            int n) {
  float v = 0;
  for (int j = 0; j < n; j++)
    v += a[j] * b[j] + a[j + 1] * b[j + 1] + a[j + 2] * b[j + 2] +
         a[j + 3] * b[j + 3] + a[j + 4] * b[j + 4] - a[j + 5] * b[j + 5];
  out[threadIdx.x] = v;
}
// CHECK-LABEL: hint: larger_body
// CHECK: int ops: {{.*}}2 * orrery_max(0, n) / 2

// The outer loop holds a loop: its test and step run every trip; the inner
// one (four trips) is unrolled fully.
__global__ void nested(float *out, const float *a, int n) {
  float v = a[threadIdx.x];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 4; j++)
      v = v * 1.5f - 0.5f;
  out[threadIdx.x] = v;
}
// CHECK-LABEL: hint: nested
// CHECK: int ops: 2 * orrery_max(0, n)
// CHECK-NOT: / 4
// CHECK: accesses
