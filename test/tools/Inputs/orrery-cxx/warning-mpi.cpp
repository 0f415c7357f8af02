// Has a site (orrery-instrument rewrites it) and fails with -Werror.
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int unused = 0;
  MPI_Finalize();
  return 0;
}
