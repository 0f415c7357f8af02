// Stops when the value read back through a header (header-read.h) is 0.
#include "header-read.h"

#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double *Dev;
  cudaMalloc(&Dev, sizeof(double));
  double Dt = readBack(Dev);
  if (Dt <= 0)
    printf("timestep %g too small\n", Dt);
  cudaFree(Dev);
  MPI_Finalize();
  return 0;
}
