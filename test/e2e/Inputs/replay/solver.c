/* A C host whose control flow depends on values it copies back from the
 * device: a residual that shrinks by a per-rank rate until it is below a
 * tolerance, a flag read with an asynchronous copy, and per-block partial
 * sums added on the host. The "kernel" is host arithmetic copied to the
 * device, so that a native run without a GPU (fake-cudart.c) reads real
 * values. */
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double *d_res, *d_part;
  int *d_flag;
  cudaStream_t s;
  cudaMalloc((void **)&d_res, sizeof(double));
  cudaMalloc((void **)&d_flag, sizeof(int));
  cudaMalloc((void **)&d_part, 4 * sizeof(double));
  cudaStreamCreate(&s);

  double res = 1.0, rate = rank % 2 ? 0.25 : 0.5;
  int it = 0;
  cudaMemcpy(d_res, &res, sizeof res, cudaMemcpyHostToDevice);
  for (; it < 1000; ++it) {
    cudaMemcpy(&res, d_res, sizeof res, cudaMemcpyDeviceToHost);
    if (res < 1e-6)
      break;
    res *= rate;
    cudaMemcpy(d_res, &res, sizeof res, cudaMemcpyHostToDevice);
  }

  int more = 1, steps = 0;
  while (more) {
    int next = steps < 3 + rank % 2;
    cudaMemcpy(d_flag, &next, sizeof next, cudaMemcpyHostToDevice);
    cudaMemcpyAsync(&more, d_flag, sizeof more, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    ++steps;
  }

  double part[4] = {rank + 1.0, 2.0, 3.0, 4.5}, back[4];
  cudaMemcpy(d_part, part, sizeof part, cudaMemcpyHostToDevice);
  cudaMemcpy(back, d_part, sizeof back, cudaMemcpyDeviceToHost);
  double sum = back[0] + back[1] + back[2] + back[3];

  printf("rank %d: %d iterations, %d steps, sum %.1f\n", rank, it, steps, sum);
  cudaFree(d_res);
  cudaFree(d_flag);
  cudaFree(d_part);
  MPI_Finalize();
  return 0;
}
