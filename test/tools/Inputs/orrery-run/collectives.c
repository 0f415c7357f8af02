/* Calls every collective orrery-run chooses an algorithm for and checks the
   results, so a table entry SMPI cannot run (or runs wrongly) fails. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  double *A = calloc(Size, sizeof(double)), *B = calloc(Size, sizeof(double));
  int *Counts = malloc(Size * sizeof(int)), *Displs = malloc(Size * sizeof(int));
  for (int I = 0; I < Size; ++I) {
    Counts[I] = 1;
    Displs[I] = I;
    A[I] = Rank + 1;
  }
  double Sum = Size * (Size + 1) / 2.0;
  int Bad = 0;
  MPI_Allreduce(A, B, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  Bad |= B[0] != Sum;
  MPI_Reduce(A, B, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  Bad |= Rank == 0 && B[0] != Sum;
  B[0] = Rank == 0 ? 42 : 0;
  MPI_Bcast(B, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  Bad |= B[0] != 42;
  MPI_Allgather(A, 1, MPI_DOUBLE, B, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  Bad |= B[Size - 1] != Size;
  MPI_Allgatherv(A, 1, MPI_DOUBLE, B, Counts, Displs, MPI_DOUBLE,
                 MPI_COMM_WORLD);
  Bad |= B[Size - 1] != Size;
  MPI_Gather(A, 1, MPI_DOUBLE, B, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  Bad |= Rank == 0 && B[Size - 1] != Size;
  for (int I = 0; I < Size; ++I)
    B[I] = I;
  MPI_Scatter(B, 1, MPI_DOUBLE, A, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  Bad |= A[0] != Rank;
  for (int I = 0; I < Size; ++I)
    A[I] = Rank;
  MPI_Alltoall(A, 1, MPI_DOUBLE, B, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  Bad |= B[Size - 1] != Size - 1;
  MPI_Alltoallv(A, Counts, Displs, MPI_DOUBLE, B, Counts, Displs, MPI_DOUBLE,
                MPI_COMM_WORLD);
  Bad |= B[Size - 1] != Size - 1;
  for (int I = 0; I < Size; ++I)
    A[I] = 1;
  MPI_Reduce_scatter(A, B, Counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  Bad |= B[0] != Size;
  MPI_Barrier(MPI_COMM_WORLD);
  int AnyBad = 0;
  MPI_Allreduce(&Bad, &AnyBad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (Rank == 0)
    printf("collectives %s on %d ranks\n", AnyBad ? "WRONG" : "ok", Size);
  free(A);
  free(B);
  free(Counts);
  free(Displs);
  MPI_Finalize();
  return AnyBad;
}
