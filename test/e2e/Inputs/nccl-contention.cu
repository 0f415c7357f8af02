// NCCL traffic shares links with other traffic (sim-nccl.test): two ranks,
// GPUs 0 and 1 of one node. An AllReduce alone, then the same AllReduce
// while rank 0 copies as many bytes to GPU 1 on another stream
// (cudaMemcpyPeerAsync): both cross the one NVLink between the two GPUs.
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>
#include <stdio.h>

static float timeAllReduce(ncclComm_t comm, cudaStream_t s, float *buf,
                           size_t n) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a, s);
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  cudaEventRecord(b, s);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ncclUniqueId id;
  if (rank == 0)
    ncclGetUniqueId(&id);
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  cudaSetDevice(rank);
  ncclComm_t comm;
  if (ncclCommInitRank(&comm, 2, id, rank) != ncclSuccess)
    return 1;
  const size_t n = 64u << 20; // floats: 256 MiB
  float *buf, *peer = nullptr;
  cudaMalloc(&buf, n * sizeof(float));
  if (rank == 1)
    cudaMalloc(&peer, n * sizeof(float));
  MPI_Bcast(&peer, sizeof peer, MPI_BYTE, 1, MPI_COMM_WORLD);
  cudaStream_t s, copies;
  cudaStreamCreate(&s);
  cudaStreamCreate(&copies);

  float alone = timeAllReduce(comm, s, buf, n);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    cudaMemcpyPeerAsync(peer, 1, buf, 0, n * sizeof(float), copies);
  float shared = timeAllReduce(comm, s, buf, n);
  cudaDeviceSynchronize();
  if (rank == 0)
    printf("allreduce alone %.3f ms, beside a peer copy %.3f ms: %.2fx\n",
           alone, shared, shared / alone);
  ncclCommDestroy(comm);
  MPI_Finalize();
  return 0;
}
