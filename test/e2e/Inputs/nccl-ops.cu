// NCCL on simulated GPUs (sim-nccl.test): the unique id travels over MPI,
// an AllReduce and a grouped ring exchange run on a stream, timed with
// events; rank 0 queues a 4 GiB memset first, so every rank's AllReduce
// waits for it; an AllReduce captured into a CUDA graph runs at each launch.
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ncclUniqueId id;
  if (rank == 0)
    ncclGetUniqueId(&id);
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  cudaSetDevice(rank % 4);
  ncclComm_t comm;
  if (ncclCommInitRank(&comm, size, id, rank) != ncclSuccess)
    return 1;
  int count = 0, me = -1;
  ncclCommCount(comm, &count);
  ncclCommUserRank(comm, &me);

  const size_t n = 64u << 20; // floats: 256 MiB
  float *buf, *scratch;
  cudaMalloc(&buf, 2 * n * sizeof(float));
  cudaMalloc(&scratch, 4ull << 30);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaEvent_t t0, t1, t2, t3;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  cudaEventCreate(&t2);
  cudaEventCreate(&t3);

  cudaEventRecord(t0, s);
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  cudaEventRecord(t1, s);
  ncclGroupStart();
  ncclSend(buf, n, ncclFloat, (rank + 1) % size, comm, s);
  ncclRecv(buf + n, n, ncclFloat, (rank + size - 1) % size, comm, s);
  ncclGroupEnd();
  cudaEventRecord(t2, s);
  cudaStreamSynchronize(s);
  float allreduce, ring;
  cudaEventElapsedTime(&allreduce, t0, t1);
  cudaEventElapsedTime(&ring, t1, t2);
  printf("rank %d of %d: allreduce %.4f ms, ring %.4f ms\n", me, count,
         allreduce, ring);

  // Stream ordering: rank 0's AllReduce starts after its memset, and so
  // does everyone's.
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  if (rank == 0)
    cudaMemsetAsync(scratch, 0, 4ull << 30, s);
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  cudaStreamSynchronize(s);
  printf("rank %d: ordered allreduce ends %.4f ms after the barrier\n", rank,
         (MPI_Wtime() - start) * 1e3);
  // Captured into a graph: the members meet at each of three launches.
  cudaGraph_t g;
  cudaGraphExec_t x;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&x, g, 0);
  cudaEventRecord(t0, s);
  for (int i = 0; i < 3; ++i)
    cudaGraphLaunch(x, s);
  cudaEventRecord(t3, s);
  cudaStreamSynchronize(s);
  float graphs;
  cudaEventElapsedTime(&graphs, t0, t3);
  printf("rank %d: three graph launches %.3f ms\n", rank, graphs);
  ncclCommDestroy(comm);
  MPI_Finalize();
  return 0;
}
