/* A device-buffer ping-pong between ranks 0 and 1. */
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char *buf;
  cudaMalloc((void **)&buf, 1 << 20);
  double t0 = MPI_Wtime();
  for (int i = 0; i < 10; ++i) {
    if (rank == 0) {
      MPI_Send(buf, 1 << 20, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, 1 << 20, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, 1 << 20, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, 1 << 20, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    }
  }
  if (rank == 0)
    printf("round trips 10 in %.9f s\n", MPI_Wtime() - t0);
  cudaFree(buf);
  MPI_Finalize();
  return 0;
}
