// Calls nested in calls are each a site; their rewrites nest (the inner one
// inside the outer call's argument list), and the output compiles.
// RUN: orrery-instrument --quiet %s -o %t.cu -- %mock-cuda-flags
// RUN: sed -e '/^\/\/ /d' %t.cu | FileCheck %s
// RUN: %clangxx -fsyntax-only -Werror %mock-cuda-flags -I %hooks-include %t.cu
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>

void nested(double *d, int n) {
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  if (cudaMemset(d, 0, n) != cudaSuccess || cudaDeviceSynchronize())
    MPI_Abort(MPI_COMM_WORLD, 1);
}

// CHECK: printf("%s\n", orrery_result<const char *>((orrery_cuda_begin(&orrery_site_1, orrery_buf_none(), orrery_buf_none(), 0, 0), orrery_end_ptr(&orrery_site_1, (const void *)(cudaGetErrorString(orrery_result<cudaError_t>((orrery_cuda_begin(&orrery_site_2, orrery_buf_none(), orrery_buf_none(), 0, 0), orrery_end(&orrery_site_2, (int)(cudaGetLastError()))))))))));
// CHECK: if (orrery_result<cudaError_t>((orrery_cuda_begin(&orrery_site_3, {{.*}}, orrery_end(&orrery_site_3, (int)(cudaMemset(d, 0, n))))) != cudaSuccess || orrery_result<cudaError_t>((orrery_cuda_begin(&orrery_site_4, orrery_buf_none(), orrery_buf_none(), 0, 0), orrery_end(&orrery_site_4, (int)(cudaDeviceSynchronize())))))
// CHECK: orrery_result<int>((orrery_mpi_begin(&orrery_site_5, orrery_buf_none(), orrery_buf_none(), -1, (orrery_intptr_t)(MPI_COMM_WORLD), -1, -1, -1, 0), orrery_end(&orrery_site_5, (int)(MPI_Abort(MPI_COMM_WORLD, 1)))));
