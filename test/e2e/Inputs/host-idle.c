// Does no work of its own between MPI_Init and MPI_Finalize: with
// --host-compute, its simulated time is only the MPI calls and the few
// microseconds of host code between them.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
