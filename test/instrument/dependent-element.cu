// A template kernel whose accesses go through a local pointer chosen by a
// condition (heFFTe's packer): in the template, block[i] has Clang's
// placeholder dependent type, which has no spelling. The hint
// takes the element size from the pointer's declared type instead, and the
// instrumented source compiles.
// RUN: orrery-instrument --quiet %s -o %t.cu -- %mock-cuda-flags
// RUN: FileCheck %s < %t.cu
// RUN: %clangxx -fsyntax-only -Werror %mock-cuda-flags -I %hooks-include %t.cu
#include <cuda_runtime.h>

template <typename scalar, int threads, bool pack>
__global__ void packer(int n, int stride, const scalar src[], scalar dst[]) {
  const scalar *block = pack ? &src[blockIdx.x * stride] : &src[blockIdx.x * n];
  for (int i = threadIdx.x; i < n; i += threads)
    dst[blockIdx.x * n + i] = block[i];
}

void run(const float *s, float *d, cudaStream_t st) {
  packer<float, 128, true><<<64, 128, 0, st>>>(1024, 2048, s, d);
}
// CHECK-NOT: <dependent type>
// CHECK: sizeof(scalar)
