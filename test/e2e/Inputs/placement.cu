// Where ranks and their GPUs are, as liborrery-sim sees them
// (test/e2e/sim-placement.test):
//
//   placement local             prints the size of rank 0's node
//                               communicator (MPI_COMM_TYPE_SHARED)
//   placement same-gpu BYTES    every rank on GPU 0; rank 0 sends a device
//                               buffer to rank 1
//   placement own-gpu BYTES     each rank on its local rank's GPU; the same
//   placement host BYTES        rank 0 sends a host buffer to rank 1
#include <cuda_runtime.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *what = argc > 1 ? argv[1] : "";
  if (!strcmp(what, "local")) {
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
                        MPI_INFO_NULL, &node);
    int size, local;
    MPI_Comm_size(node, &size);
    MPI_Comm_rank(node, &local);
    if (rank == 0)
      printf("local_size %d\n", size);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return 0;
  }
  long bytes = argc > 2 ? atol(argv[2]) : 8;
  int local = rank % 2;
  cudaSetDevice(!strcmp(what, "own-gpu") ? local : 0);
  char *buf;
  if (!strcmp(what, "host"))
    buf = (char *)malloc(bytes);
  else
    cudaMalloc((void **)&buf, bytes);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (rank == 0)
    MPI_Send(buf, (int)bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Recv(buf, (int)bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  if (rank == 1)
    printf("p2p_seconds %.9g\n", MPI_Wtime() - t0);
  MPI_Finalize();
  return 0;
}
