/* Rank 0 sends a small (eager, detached) message that no rank receives:
   it is still in flight when the simulation ends (sim-simgrid-fixes.test). */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x = 1.0;
  MPI_Request r;
  if (rank == 0) {
    MPI_Isend(&x, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, &r);
    MPI_Request_free(&r);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("done\n");
  MPI_Finalize();
  return 0;
}
