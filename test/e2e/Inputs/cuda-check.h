// Stops the run with the CUDA error of a failed call (the test programs'
// one error check).
#ifndef ORRERY_TEST_CUDA_CHECK_H
#define ORRERY_TEST_CUDA_CHECK_H

#include <cuda_runtime.h>
#include <mpi.h>

#include <stdio.h>

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

#endif
