// Rule: arithmetic and math calls (passes/lib/kernels/MathCalls.cpp): a
// data table of math functions by cost class; a*b+c contracts to an fma.
// RUN: orrery-instrument --report %s -- %mock-cuda-flags | FileCheck %s
#include <cuda_runtime.h>

__device__ float fmaf(float, float, float);
__device__ float __expf(float);
__device__ float __fdividef(float, float);
__device__ double pow(double, double);
__device__ double rsqrt(double);

__global__ void calls(float *x, double *y) {
  int i = threadIdx.x;
  x[i] = fmaf(x[i], 2.0f, 1.0f) + sqrtf(x[i]) + __expf(x[i]) +
         __fdividef(x[i], 3.0f);
  y[i] = pow(y[i], 2.0) * y[i] + rsqrt(y[i]);
}

// fp32: fmaf 1 fma; sqrtf 1 sqrt; __expf 1 transc; __fdividef 1 div; three
// + are 3 adds. fp64: pow(...) * y + rsqrt(...) is 1 fma (the * contracts),
// pow 1 transc, rsqrt 1 sqrt.
// CHECK-LABEL: hint: calls
// CHECK: fp32: add 3, mul 0, fma 1, div 1, sqrt 1, transc 1 (flops 5)
// CHECK: fp64: add 0, mul 0, fma 1, div 0, sqrt 1, transc 1 (flops 2)
