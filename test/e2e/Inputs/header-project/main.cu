// A program whose kernel, launch and synchronization live in a header
// (include/scale.cuh, found through -Iinclude or by its path), as in codes
// that keep their kernels in headers: orrery-cxx instruments those headers.
#ifdef BY_PATH // no -I: the header named by its path
#include "include/scale.cuh"
#else
#include "scale.cuh"
#endif

#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  float *X;
  cudaMalloc(&X, N * sizeof(float));
  for (int I = 0; I < 10; ++I)
    scaleAll(X);
  cudaFree(X);
  MPI_Finalize();
  return 0;
}
