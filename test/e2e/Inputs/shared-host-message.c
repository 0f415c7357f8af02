// A host-staged exchange of a large host array (as CUDA+MPI ping-pongs
// without CUDA-aware MPI do): rank 0 sends from a malloc'ed array above the
// shared-host threshold, rank 1 receives into a static (private) array.
// Shared host arrays hold no meaningful data, so no payload is copied: the
// receiver's array keeps what it held. A small message from a private array
// is still delivered.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Bytes = 1 << 20 };
static char Received[Bytes];

int main(int argc, char **argv) {
  int Rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  int Small = 0;
  if (Rank == 0) {
    char *Large = malloc(Bytes);
    memset(Large, 7, Bytes);
    MPI_Send(Large, Bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    Small = 42;
    MPI_Send(&Small, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    free(Large);
  } else if (Rank == 1) {
    memset(Received, 1, Bytes);
    MPI_Recv(Received, Bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    MPI_Recv(&Small, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("large message: first byte %d, last byte %d; small message %d\n",
           Received[0], Received[Bytes - 1], Small);
  }
  MPI_Finalize();
  return 0;
}
