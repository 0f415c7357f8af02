/* Rank 0 sends N bytes to the last rank, whose receive is already posted;
   prints the simulated transfer time (MPI_Wtime is the simulated clock). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  int Bytes = argc > 1 ? atoi(argv[1]) : 1000000;
  char *Buf = calloc(Bytes, 1);
  double Start = 0;
  MPI_Request Req = MPI_REQUEST_NULL;
  if (Rank == Size - 1)
    MPI_Irecv(Buf, Bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &Req);
  MPI_Barrier(MPI_COMM_WORLD);
  if (Rank == 0) {
    Start = MPI_Wtime();
    MPI_Send(Buf, Bytes, MPI_CHAR, Size - 1, 0, MPI_COMM_WORLD);
    MPI_Send(&Start, 1, MPI_DOUBLE, Size - 1, 1, MPI_COMM_WORLD);
  } else if (Rank == Size - 1) {
    MPI_Wait(&Req, MPI_STATUS_IGNORE);
    double End = MPI_Wtime();
    MPI_Recv(&Start, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("%d bytes in %.6g s\n", Bytes, End - Start);
  }
  free(Buf);
  MPI_Finalize();
  return argc > 2 ? atoi(argv[2]) : 0;
}
