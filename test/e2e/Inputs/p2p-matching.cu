// Point-to-point matching by tag and source (test/e2e/sim-p2p-matching.test).
//
//   p2p-matching tags BYTES  rank 0 sends a host buffer with tag 1, then a
//                            device buffer with tag 2; rank 1 receives tag 2
//                            into a device buffer first, then tag 1
//   p2p-matching edge BYTES  one MPI_Sendrecv per rank of device buffers,
//                            as at the edges of a non-periodic halo: rank 0
//                            sends to MPI_PROC_NULL and receives from 1,
//                            rank 1 sends to 0 and receives from
//                            MPI_PROC_NULL
#include <cuda_runtime.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc != 3) {
    if (rank == 0)
      fprintf(stderr, "usage: p2p-matching tags|edge BYTES\n");
    MPI_Finalize();
    return 1;
  }
  int bytes = atoi(argv[2]);
  char *dev, *dev2;
  char *host = (char *)malloc(bytes), *host2 = (char *)malloc(bytes);
  cudaMalloc((void **)&dev, bytes);
  cudaMalloc((void **)&dev2, bytes);
  if (!strcmp(argv[1], "tags")) {
    if (rank == 0) {
      MPI_Request r[2];
      MPI_Isend(host, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &r[0]);
      MPI_Isend(dev, bytes, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &r[1]);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(dev2, bytes, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(host2, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    }
  } else if (!strcmp(argv[1], "edge")) {
    int dest = rank == 0 ? MPI_PROC_NULL : 0;
    int source = rank == 0 ? 1 : MPI_PROC_NULL;
    MPI_Sendrecv(dev, bytes, MPI_BYTE, dest, 0, dev2, bytes, MPI_BYTE, source,
                 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  cudaFree(dev);
  cudaFree(dev2);
  free(host);
  free(host2);
  MPI_Finalize();
  return 0;
}
