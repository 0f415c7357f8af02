/* Global decisions taken on MPI results: each rank's particle count and
 * residual come back from the device (copies), and the loops end on their
 * sums over ranks (MPI_Allreduce, MPI_Iallreduce); rank 0 broadcasts a
 * step count it read back and gets the largest count at the root
 * (MPI_Reduce). fake-cudart.c stands in for the GPU in the native run. */
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long *d_count;
  double *d_res;
  int *d_steps;
  cudaMalloc((void **)&d_count, sizeof(long));
  cudaMalloc((void **)&d_res, sizeof(double));
  cudaMalloc((void **)&d_steps, sizeof(int));

  long local = 10 + 5 * rank, global = 0, most = 0, top = -1;
  int cycles = 0;
  do {
    cudaMemcpy(d_count, &local, sizeof local, cudaMemcpyHostToDevice);
    cudaMemcpy(&local, d_count, sizeof local, cudaMemcpyDeviceToHost);
    MPI_Allreduce(&local, &global, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    most = local > most ? local : most;
    local = local > 3 ? local - 3 : 0;
    ++cycles;
  } while (global > 0);
  MPI_Reduce(&most, &top, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);

  double res = 1.0, r = 0, sum = 0;
  int iters = 0;
  MPI_Request req;
  for (;;) {
    cudaMemcpy(d_res, &res, sizeof res, cudaMemcpyHostToDevice);
    cudaMemcpy(&r, d_res, sizeof r, cudaMemcpyDeviceToHost);
    MPI_Iallreduce(&r, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (sum < 1e-3)
      break;
    res *= rank % 2 ? 0.25 : 0.5;
    ++iters;
  }

  int steps = 0;
  if (rank == 0) {
    int seven = 7;
    cudaMemcpy(d_steps, &seven, sizeof seven, cudaMemcpyHostToDevice);
    cudaMemcpy(&steps, d_steps, sizeof steps, cudaMemcpyDeviceToHost);
  }
  MPI_Bcast(&steps, 1, MPI_INT, 0, MPI_COMM_WORLD);

  printf("rank %d: %d cycles, %d iterations, %d steps, top %ld\n", rank, cycles,
         iters, steps, top);
  cudaFree(d_count);
  cudaFree(d_res);
  cudaFree(d_steps);
  MPI_Finalize();
  return 0;
}
