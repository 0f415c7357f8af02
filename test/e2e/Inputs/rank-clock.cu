// Cases where a rank running ahead of SimGrid's clock (docs/simulate.md,
// "A rank's time ahead of the clock") cannot stay exact, and must say so.
// Two ranks on one node of round-numbers.yaml (two GPUs), each on its own.
//
//   rank-clock switch ELEMS  rank 1 moves to rank 0's GPU and launches a
//                            kernel there while rank 0's kernel, which it
//                            waited for ahead of the clock, still runs
//   rank-clock pmpi ELEMS    rank 0 calls PMPI_Barrier (not rewritten by
//                            orrery-instrument) with CPU time still ahead
//   rank-clock shared ELEMS  both ranks on GPU 0, rank 1's kernel joining
//                            rank 0's, which rank 0 looks at after CPU time
//                            of its own past that kernel's end alone
//                            (exact: the same times as without)
//
// Each rank prints "SCENARIO_rankR_kernel_seconds S", its kernel's time
// measured with events (for check_close.py).
#include "cuda-check.h"

#include <cuda_runtime.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__global__ void axpy(double a, const double *x, double *y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

/// One axpy over n doubles on the current GPU, timed with events; with
/// \p look, the rank spends CPU time before it records the second event.
static double timedKernel(long n, int look) {
  double *x, *y;
  check(cudaMalloc((void **)&x, n * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&y, n * sizeof(double)), "cudaMalloc");
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "cudaEventCreate");
  check(cudaEventCreate(&b), "cudaEventCreate");
  check(cudaEventRecord(a, 0), "cudaEventRecord");
  axpy<<<(unsigned)((n + 255) / 256), 256>>>(2.0, x, y, n);
  if (look) {
    // CPU time of the rank's own past the kernel's end when alone (40
    // copies' call overheads), then the event record looks at the stream.
    double h[2] = {0, 0};
    for (int i = 0; i < 40; ++i)
      check(cudaMemcpy(&h[1], &h[0], sizeof(double), cudaMemcpyHostToHost),
            "cudaMemcpy");
  }
  check(cudaEventRecord(b, 0), "cudaEventRecord");
  check(cudaEventSynchronize(b), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
  return ms / 1e3;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 3 || size != 2) {
    if (rank == 0)
      fprintf(stderr, "usage: mpirun -np 2 rank-clock switch|pmpi ELEMS\n");
    MPI_Finalize();
    return 1;
  }
  const char *what = argv[1];
  long n = atol(argv[2]);
  check(cudaSetDevice(strcmp(what, "shared") ? rank : 0), "cudaSetDevice");
  check(cudaFree(0), "cudaFree");
  MPI_Barrier(MPI_COMM_WORLD);
  double seconds = 0;
  if (!strcmp(what, "switch")) {
    if (rank == 1) {
      // Rank 0 runs first meanwhile, its kernel and its wait ahead of the
      // clock (or, with ORRERY_RANK_CLOCK=0, it sleeps in that wait); then
      // this rank joins its GPU.
      usleep(10);
      check(cudaSetDevice(0), "cudaSetDevice");
    }
    seconds = timedKernel(n, 0);
  } else if (!strcmp(what, "pmpi")) {
    seconds = timedKernel(n, 0);
    if (rank == 0)
      PMPI_Barrier(MPI_COMM_WORLD);
    else
      MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(what, "shared")) {
    if (rank == 1)
      usleep(20);
    seconds = timedKernel(n, rank == 0);
  }
  printf("%s_rank%d_kernel_seconds %.9f\n", what, rank, seconds);
  MPI_Finalize();
  return 0;
}
