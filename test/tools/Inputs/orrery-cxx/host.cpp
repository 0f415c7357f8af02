// Host-only C++ with MPI.
#include <mpi.h>

int host_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
