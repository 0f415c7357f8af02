// Runs that must not pass for successful ones (test/e2e/sim-failures.test):
//   failing-run abort     rank 1 calls MPI_Abort(MPI_COMM_WORLD, 5)
//   failing-run deadlock  rank 0 receives a message nobody sends
//   failing-run signal    rank 0 dies of SIGSEGV
//   failing-run spin      says "spinning" and then synchronizes forever
//   failing-run return    rank 2 returns from main without MPI_Finalize
//   failing-run exit      rank 1 calls exit(3) before MPI_Finalize
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, x = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *what = argc > 1 ? argv[1] : "";
  if (!strcmp(what, "abort")) {
    if (rank == 1)
      MPI_Abort(MPI_COMM_WORLD, 5);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(what, "deadlock")) {
    if (rank == 0)
      MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (!strcmp(what, "spin")) {
    if (rank == 0) {
      printf("spinning\n");
      fflush(stdout);
    }
    for (;;)
      MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(what, "return")) {
    if (rank == 2)
      return 0;
  } else if (!strcmp(what, "exit")) {
    if (rank == 1)
      exit(3);
  } else if (!strcmp(what, "signal")) {
    if (rank == 0)
      raise(SIGSEGV);
  }
  MPI_Finalize();
  return 0;
}
