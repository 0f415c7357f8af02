// Host code with OpenMP pragmas in a CUDA source, built as Makefiles for
// nvcc do: nvcc -Xcompiler -fopenmp.
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double Host[64], *Dev;
#pragma omp parallel for
  for (int I = 0; I < 64; ++I)
    Host[I] = I;
  cudaMalloc(&Dev, sizeof Host);
  cudaMemcpy(Dev, Host, sizeof Host, cudaMemcpyHostToDevice);
  cudaFree(Dev);
#ifdef _OPENMP
  printf("openmp\n");
#else
  printf("no openmp\n");
#endif
  MPI_Finalize();
  return 0;
}
