// MPI messages into and out of simulated device memory: a device array
// holds no data in skeleton mode, so SMPI neither copies a payload into it
// nor reads one from it, and the array stays address space only. Each phase
// moves 64 MiB in rows of eager (32 KiB) and rendezvous (1 MiB) size
// between a fresh device array of one rank and a small host buffer of the
// other; the simulation's resident memory grows by far less than 64 MiB.
// A managed array is the host's to read: what arrives there is copied.
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long residentKiB(void) {
  FILE *F = fopen("/proc/self/statm", "r");
  long Size = 0, Resident = 0;
  if (!F)
    return -1;
  if (fscanf(F, "%ld %ld", &Size, &Resident) != 2)
    Resident = -1;
  fclose(F);
  return Resident * 4;
}

static const size_t Bytes = 64u << 20;

// Rank From sends Bytes in rows of Row bytes to rank 1 - From, the device
// array on rank DeviceRank, a reused host buffer on the other. Each row is
// acknowledged before the next is sent, so that SMPI's heap copies of eager
// sends do not pile up.
static void move(int Rank, int From, int DeviceRank, size_t Row) {
  char *Dev = NULL;
  cudaMalloc((void **)&Dev, Bytes);
  char *Host = (char *)malloc(Row);
  memset(Host, 7, Row);
  MPI_Barrier(MPI_COMM_WORLD);
  long Before = residentKiB();
  for (size_t Off = 0; Off < Bytes; Off += Row) {
    char *Mine = Rank == DeviceRank ? Dev + Off : Host;
    if (Rank == From) {
      MPI_Request Send;
      MPI_Isend(Mine, (int)Row, MPI_BYTE, 1 - From, 0, MPI_COMM_WORLD, &Send);
      MPI_Wait(&Send, MPI_STATUS_IGNORE);
      MPI_Recv(NULL, 0, MPI_BYTE, 1 - From, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(Mine, (int)Row, MPI_BYTE, From, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Send(NULL, 0, MPI_BYTE, From, 1, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  long Grown = residentKiB() - Before;
  if (Rank == 0)
    printf("%zu-byte rows %s device memory: resident memory grew by %s "
           "16 MiB\n",
           Row, From == DeviceRank ? "out of" : "into",
           Grown >= 0 && Grown < (16 << 10) ? "less than" : "at least");
  free(Host);
  cudaFree(Dev);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  for (size_t Row = 32u << 10; Row <= (1u << 20); Row *= 32) {
    move(Rank, /*From=*/0, /*DeviceRank=*/1, Row);
    move(Rank, /*From=*/0, /*DeviceRank=*/0, Row);
  }
  int *Managed = NULL;
  cudaMallocManaged((void **)&Managed, sizeof(int), cudaMemAttachGlobal);
  *Managed = Rank == 0 ? 42 : 0;
  if (Rank == 0)
    MPI_Send(Managed, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
  else
    MPI_Recv(Managed, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (Rank == 1)
    printf("managed memory received %d\n", *Managed);
  cudaFree(Managed);
  MPI_Finalize();
  return 0;
}
