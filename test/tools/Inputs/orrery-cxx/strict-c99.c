// A C program built with -std=c99 (no POSIX feature macro) that includes
// <sys/time.h> before <mpi.h>, as NVIDIA's CUDA-aware MPI Jacobi example
// does: SMPI's mpi.h uses useconds_t, which strict C99 does not declare.
#include <sys/time.h>

#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("rank %d\n", rank);
  MPI_Finalize();
  return 0;
}
