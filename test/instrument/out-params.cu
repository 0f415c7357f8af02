// Out-parameters (`&p` of a variable the call initialises) reach the hooks
// through orrery_out_ptr, so the instrumented code compiles clean under
// clang's -Wall -Werror (-Wuninitialized-const-pointer took the buffer
// annotation for a read of the uninitialised variable).
// RUN: orrery-instrument --quiet %s -o %t.cu -- %mock-cuda-flags
// RUN: %clangxx -fsyntax-only -Wall -Werror %mock-cuda-flags -I %hooks-include %t.cu
// RUN: FileCheck %s < %t.cu
#include <cuda_runtime.h>

int main() {
  double *a, *b;
  cudaStream_t s;
  cudaMalloc(&a, 100);
  cudaMalloc((void **)&b, 100);
  cudaStreamCreate(&s);
  cudaFree(a);
  cudaFree(b);
  cudaStreamDestroy(s);
  return 0;
}
// CHECK: orrery_buf_bytes((const void *)orrery_out_ptr((void *)(&a)), (long long)(100))
// CHECK: orrery_buf_bytes((const void *)orrery_out_ptr((void *)((void **)&b)), (long long)(100))
// CHECK: orrery_out_ptr((void *)(&s))
// CHECK: orrery_buf_bytes((const void *)(a), (long long)(0))
