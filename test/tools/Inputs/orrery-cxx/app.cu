// A small CUDA + MPI program for the orrery-cxx tests: a kernel launch,
// device memory and one collective.
#include "app.h"
#include <cstdio>
#include <mpi.h>

__global__ void scale(double *a, double f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= f;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double *d = nullptr;
  cudaMalloc(&d, APP_N * sizeof(double));
  scale<<<(APP_N + 255) / 256, 256>>>(d, 2.0, APP_N);
  cudaDeviceSynchronize();
  double x = rank, sum = 0;
  MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  cudaFree(d);
  if (rank == 0)
    std::printf("sum %g\n", sum);
  MPI_Finalize();
  return 0;
}
