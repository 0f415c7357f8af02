// The generated hint functions compute, at run time with the real launch
// geometry and arguments, the same counts --report prints for that launch.
// RUN: orrery-instrument --quiet %s -o %t.cu -- %mock-cuda-flags
// RUN: %clangxx %mock-cuda-flags -I %hooks-include %t.cu %S/Inputs/print_hints.cpp -o %t.exe
// RUN: %t.exe > %t.run
// RUN: orrery-instrument --report %s --launch 'daxpy grid=40 block=256 n=10000' --launch 'halo grid=8,4 block=32,8 nx=200 ny=30' --launch 'scale grid=2 block=64 n=100' -- %mock-cuda-flags > %t.report
// RUN: cat %t.run %t.report | FileCheck %s
#include <cuda_runtime.h>

__global__ void daxpy(int n, double a, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void halo(const double *in, double *out, double *sum, int nx,
                     int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (x < nx - 1 && y < ny - 1) {
    double v = in[y * nx + x - 1] + in[y * nx + x + 1];
    out[y * nx + x] = v;
    atomicAdd(sum, v);
  }
}

template <typename T> __global__ void scale(T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = a * x[i] + a;
}

int main() {
  double *d = 0;
  float *f = 0;
  daxpy<<<(10000 + 255) / 256, 256>>>(10000, 2.0, d, d);
  halo<<<dim3(8, 4), dim3(32, 8)>>>(d, d, d, 200, 30);
  scale<float><<<2, 64>>>(f, 2.0f, 100);
  scale<double><<<2, 64>>>(d, 2.0, 100);
  return 0;
}

// Derivations: daxpy n = 10000 on 40 x 256 threads: 10000 active, one fp64
// fma, 8 + 8 B loaded and 8 B stored per thread. halo on an 8x4 grid of
// 32x8 blocks, nx = 200, ny = 30: x in [1, 199), y in [1, 29): 198 x 28 =
// 5544 active; one add, two coalesced 8-byte loads of `in` (footprint one
// element per thread: 5544 x 8), one atomic. scale<T>: 100 of 128 threads,
// one fma in T's precision.
// At run time (per active thread, as the hook receives them):
// CHECK: hint daxpy: launched 10240 active 10000 fp32_fma 0 fp64_fma 1 fp64_add 0 load_bytes 16 store_bytes 8 load_footprint 160000 atomics 0 confidence 0 measured -1
// CHECK: hint halo: launched 8192 active 5544 fp32_fma 0 fp64_fma 0 fp64_add 1 load_bytes 16 store_bytes 8 load_footprint 44352 atomics 1 confidence 0 measured -1
// CHECK: hint scale<float>: launched 128 active 100 fp32_fma 1 fp64_fma 0 fp64_add 0 load_bytes 4 store_bytes 4 load_footprint 400
// CHECK: hint scale<double>: launched 128 active 100 fp32_fma 0 fp64_fma 1 fp64_add 0 load_bytes 8 store_bytes 8 load_footprint 800
// And the report for the same launches (totals = active x per thread):
// CHECK-LABEL: == Launch daxpy grid=40,1,1 block=256,1,1
// CHECK: threads: 10240 launched, 10000 active
// CHECK: bytes loaded: 160000 requested, 160000 footprint
// CHECK-LABEL: == Launch halo grid=8,4,1 block=32,8,1
// CHECK: threads: 8192 launched, 5544 active
// CHECK: bytes loaded: 88704 requested, 44352 footprint
// CHECK: atomics: 5544 (5544 to a shared address)
// CHECK-LABEL: == Launch scale grid=2,1,1 block=64,1,1
// CHECK: scale<float>
// CHECK: bytes loaded: 400 requested, 400 footprint
// CHECK: scale<double>
// CHECK: bytes loaded: 800 requested, 800 footprint
