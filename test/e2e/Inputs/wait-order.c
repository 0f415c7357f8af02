// A nonblocking receive completes at the wait on its own request, not at
// a wait on another (test/e2e/sim-p2p-matching.test): each rank posts
// MPI_Irecv and MPI_Isend, waits on the send, then on the receive.
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bytes = argc > 1 ? atoi(argv[1]) : 1048576;
  char *out = malloc(bytes), *in = malloc(bytes);
  int peer = 1 - rank;
  MPI_Request send, recv;
  MPI_Irecv(in, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &recv);
  MPI_Isend(out, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &send);
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  MPI_Wait(&recv, MPI_STATUS_IGNORE);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
