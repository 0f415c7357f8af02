// Selects a GPU the way codes run under a launcher that binds one GPU per
// rank do: device 0 of what it sees. Prints what it sees, then exchanges a
// device buffer with its neighbour on the node.
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>

__global__ void touch(double *B) { B[threadIdx.x] = 0; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank, Size, Count = 0, Dev = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  cudaGetDeviceCount(&Count);
  cudaSetDevice(0);
  cudaGetDevice(&Dev);
  cudaDeviceProp P;
  cudaGetDeviceProperties(&P, 0);
  double *Buf;
  cudaMalloc(&Buf, 1 << 20);
  cudaPointerAttributes A;
  cudaPointerGetAttributes(&A, Buf);
  // What thrust and CUB ask before a launch: no error may be left behind.
  cudaFuncAttributes F;
  cudaGetLastError();
  cudaFuncGetAttributes(&F, touch);
  int AttrError = cudaGetLastError();
  int Bad = cudaSetDevice(1) == cudaSuccess ? 0 : 1;
  cudaSetDevice(0);
  printf("rank %d sees %d GPU(s), device %d, pci %d, buffer on %d, "
         "device 1 refused %d, attributes error %d\n",
         Rank, Count, Dev, P.pciDeviceID, A.device, Bad, AttrError);
  int Peer = Rank ^ 1;
  if (Peer < Size)
    MPI_Sendrecv(Buf, 1 << 17, MPI_DOUBLE, Peer, 0, Buf, 1 << 17, MPI_DOUBLE,
                 Peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  cudaFree(Buf);
  MPI_Finalize();
  return 0;
}
