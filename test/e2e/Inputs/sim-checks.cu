// Scenarios whose simulated times can be computed by hand on
// round-numbers.yaml with --network ideal (test/e2e/sim-*.test). Each prints
// "<name>_seconds <value>" measured with MPI_Wtime on simulated clocks.
//
//   sim-checks p2p BYTES        rank 0 sends a device buffer to rank 1
//   sim-checks allreduce BYTES  MPI_Allreduce on device buffers
//   sim-checks overlap BYTES    kernel on one stream, MPI exchange meanwhile
//   sim-checks h2d COPIES BYTES concurrent H2D copies on one GPU
//   sim-checks chain BYTES      copies queued behind others, across streams
//   sim-checks share ELEMS BYTES kernels of two streams sharing one GPU
#include "cuda-check.h"

#include <cuda_runtime.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// One FP64 FMA per thread on n elements: time n / throughput on the GPU.
__global__ void axpy(double a, const double *x, double *y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 3) {
    if (rank == 0)
      fprintf(stderr,
              "usage: sim-checks p2p|allreduce|overlap|h2d|chain|share ...\n");
    MPI_Finalize();
    return 1;
  }
  const char *what = argv[1];
  long bytes = atol(argv[argc - 1]);
  // One GPU per rank of a node, as GPU-aware MPI programs select it.
  const char *local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  int devices = 1;
  check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  check(cudaSetDevice((local ? atoi(local) : 0) % devices), "cudaSetDevice");
  char *dev, *dev2;
  check(cudaMalloc((void **)&dev, bytes), "cudaMalloc");
  check(cudaMalloc((void **)&dev2, bytes), "cudaMalloc");
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (!strcmp(what, "p2p")) {
    if (rank == 0)
      MPI_Send(dev, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
      MPI_Recv(dev, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  } else if (!strcmp(what, "allreduce")) {
    MPI_Allreduce(dev, dev2, (int)(bytes / 8), MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
  } else if (!strcmp(what, "overlap")) {
    // A kernel on `compute` over ELEMS doubles while the host exchanges
    // BYTES with its neighbour rank: `overlap ELEMS BYTES`.
    long n = atol(argv[2]);
    double *x, *y;
    check(cudaMalloc((void **)&x, n * sizeof(double)), "cudaMalloc");
    check(cudaMalloc((void **)&y, n * sizeof(double)), "cudaMalloc");
    cudaStream_t compute;
    cudaEvent_t k0, k1;
    check(cudaStreamCreate(&compute), "cudaStreamCreate");
    check(cudaEventCreate(&k0), "cudaEventCreate");
    check(cudaEventCreate(&k1), "cudaEventCreate");
    double h0 = MPI_Wtime();
    check(cudaEventRecord(k0, compute), "cudaEventRecord");
    axpy<<<(unsigned)((n + 255) / 256), 256, 0, compute>>>(2.0, x, y, n);
    check(cudaEventRecord(k1, compute), "cudaEventRecord");
    double m0 = MPI_Wtime();
    int peer = rank ^ 1;
    MPI_Sendrecv(dev, (int)bytes, MPI_BYTE, peer, 0, dev2, (int)bytes, MPI_BYTE,
                 peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double m1 = MPI_Wtime();
    check(cudaStreamSynchronize(compute), "cudaStreamSynchronize");
    double h1 = MPI_Wtime();
    float ms;
    check(cudaEventElapsedTime(&ms, k0, k1), "cudaEventElapsedTime");
    if (rank == 0) {
      printf("overlap_kernel_seconds %.9f\n", ms / 1e3);
      printf("overlap_mpi_seconds %.9f\n", m1 - m0);
      printf("overlap_host_seconds %.9f\n", h1 - h0);
    }
  } else if (!strcmp(what, "h2d")) {
    // Every copy waits on one event, so all start at the same instant; the
    // event completes after a long memset, well after the copies are issued.
    int copies = atoi(argv[2]);
    if (copies > 8)
      copies = 8;
    char *host, *big;
    check(cudaMallocHost((void **)&host, bytes), "cudaMallocHost");
    check(cudaMalloc((void **)&big, 1L << 30), "cudaMalloc");
    cudaStream_t gate, s[8];
    cudaEvent_t go, done[8];
    check(cudaStreamCreate(&gate), "cudaStreamCreate");
    check(cudaEventCreate(&go), "cudaEventCreate");
    check(cudaMemsetAsync(big, 0, 1L << 30, gate), "cudaMemsetAsync");
    check(cudaEventRecord(go, gate), "cudaEventRecord");
    for (int i = 0; i < copies; ++i) {
      check(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking),
            "cudaStreamCreateWithFlags");
      check(cudaEventCreate(&done[i]), "cudaEventCreate");
      check(cudaStreamWaitEvent(s[i], go, 0), "cudaStreamWaitEvent");
      check(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s[i]),
            "cudaMemcpyAsync");
      check(cudaEventRecord(done[i], s[i]), "cudaEventRecord");
    }
    float slowest = 0;
    for (int i = 0; i < copies; ++i) {
      float ms;
      check(cudaEventSynchronize(done[i]), "cudaEventSynchronize");
      check(cudaEventElapsedTime(&ms, go, done[i]), "cudaEventElapsedTime");
      if (ms > slowest)
        slowest = ms;
    }
    if (rank == 0)
      printf("h2d_copy_seconds %.9f\n", slowest / 1e3);
  } else if (!strcmp(what, "chain")) {
    // Stream operations started by the rank, queued behind a running one,
    // seen ending only long after, and waiting for another stream's event:
    // `chain BYTES` (pinned host memory, so every copy is asynchronous).
    char *host;
    check(cudaMallocHost((void **)&host, bytes), "cudaMallocHost");
    cudaStream_t s1, s2, s3;
    cudaEvent_t e[5];
    check(cudaStreamCreate(&s1), "cudaStreamCreate");
    check(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking),
          "cudaStreamCreateWithFlags");
    check(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking),
          "cudaStreamCreateWithFlags");
    for (int i = 0; i < 5; ++i)
      check(cudaEventCreate(&e[i]), "cudaEventCreate");
    // A D2H copy on an idle stream that nobody waits for until long after.
    check(cudaEventRecord(e[2], s2), "cudaEventRecord");
    check(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, s2),
          "cudaMemcpyAsync");
    check(cudaEventRecord(e[3], s2), "cudaEventRecord");
    // Two H2D copies on one stream: the second starts when the first ends.
    check(cudaEventRecord(e[0], s1), "cudaEventRecord");
    check(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s1),
          "cudaMemcpyAsync");
    check(cudaMemcpyAsync(dev2, host, bytes, cudaMemcpyHostToDevice, s1),
          "cudaMemcpyAsync");
    check(cudaEventRecord(e[1], s1), "cudaEventRecord");
    // A D2H copy on another stream that waits for both.
    check(cudaStreamWaitEvent(s3, e[1], 0), "cudaStreamWaitEvent");
    check(cudaMemcpyAsync(host, dev2, bytes, cudaMemcpyDeviceToHost, s3),
          "cudaMemcpyAsync");
    check(cudaEventRecord(e[4], s3), "cudaEventRecord");
    check(cudaEventSynchronize(e[4]), "cudaEventSynchronize");
    while (cudaEventQuery(e[3]) != cudaSuccess) {
    }
    float queued, lazy, waited;
    check(cudaEventElapsedTime(&queued, e[0], e[1]), "cudaEventElapsedTime");
    check(cudaEventElapsedTime(&lazy, e[2], e[3]), "cudaEventElapsedTime");
    check(cudaEventElapsedTime(&waited, e[1], e[4]), "cudaEventElapsedTime");
    if (rank == 0) {
      printf("chain_queued_seconds %.9f\n", queued / 1e3);
      printf("chain_lazy_seconds %.9f\n", lazy / 1e3);
      printf("chain_waitevent_seconds %.9f\n", waited / 1e3);
    }
  } else if (!strcmp(what, "share")) {
    // Kernels of two streams on one GPU share it: `share ELEMS BYTES`, axpy
    // over ELEMS doubles, a memset of BYTES. Times of events around each.
    long n = atol(argv[2]);
    double *x, *y;
    check(cudaMalloc((void **)&x, n * sizeof(double)), "cudaMalloc");
    check(cudaMalloc((void **)&y, n * sizeof(double)), "cudaMalloc");
    char *big;
    check(cudaMalloc((void **)&big, bytes), "cudaMalloc");
    cudaStream_t s1, s2;
    cudaEvent_t e[8];
    check(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking),
          "cudaStreamCreateWithFlags");
    check(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking),
          "cudaStreamCreateWithFlags");
    for (int i = 0; i < 8; ++i)
      check(cudaEventCreate(&e[i]), "cudaEventCreate");
    unsigned blocks = (unsigned)((n + 255) / 256);
    // Alone: launch, then the kernel.
    check(cudaEventRecord(e[0], s1), "cudaEventRecord");
    axpy<<<blocks, 256, 0, s1>>>(2.0, x, y, n);
    check(cudaEventRecord(e[1], s1), "cudaEventRecord");
    check(cudaStreamSynchronize(s1), "cudaStreamSynchronize");
    float alone;
    check(cudaEventElapsedTime(&alone, e[0], e[1]), "cudaEventElapsedTime");
    // The second kernel starts one launch after the first, which has run
    // alone that long; then they share the GPU.
    check(cudaEventRecord(e[2], s1), "cudaEventRecord");
    axpy<<<blocks, 256, 0, s1>>>(2.0, x, y, n);
    check(cudaEventRecord(e[3], s1), "cudaEventRecord");
    check(cudaEventRecord(e[4], s2), "cudaEventRecord");
    axpy<<<blocks, 256, 0, s2>>>(2.0, x, y, n);
    check(cudaEventRecord(e[5], s2), "cudaEventRecord");
    check(cudaStreamSynchronize(s1), "cudaStreamSynchronize");
    check(cudaStreamSynchronize(s2), "cudaStreamSynchronize");
    // A kernel queued behind a memset on s2 starts when the memset ends,
    // while the rank waits for one it launched alone on s1 meanwhile.
    check(cudaEventRecord(e[6], s2), "cudaEventRecord");
    check(cudaMemsetAsync(big, 0, bytes, s2), "cudaMemsetAsync");
    check(cudaEventRecord(e[7], s2), "cudaEventRecord");
    axpy<<<blocks, 256, 0, s2>>>(2.0, x, y, n);
    check(cudaEventRecord(e[0], s1), "cudaEventRecord");
    axpy<<<blocks, 256, 0, s1>>>(2.0, x, y, n);
    check(cudaEventRecord(e[1], s1), "cudaEventRecord");
    check(cudaStreamSynchronize(s1), "cudaStreamSynchronize");
    check(cudaStreamSynchronize(s2), "cudaStreamSynchronize");
    float ms[5];
    check(cudaEventElapsedTime(&ms[0], e[2], e[3]), "cudaEventElapsedTime");
    check(cudaEventElapsedTime(&ms[1], e[4], e[5]), "cudaEventElapsedTime");
    check(cudaEventElapsedTime(&ms[2], e[6], e[7]), "cudaEventElapsedTime");
    check(cudaEventElapsedTime(&ms[3], e[6], e[0]), "cudaEventElapsedTime");
    check(cudaEventElapsedTime(&ms[4], e[0], e[1]), "cudaEventElapsedTime");
    // On a GPU only this rank uses: A on s1, B queued behind it, C on s2 a
    // launch later. A and C share the GPU until A ends; B then starts and
    // shares it with C.
    check(cudaEventRecord(e[2], s1), "cudaEventRecord");
    axpy<<<blocks, 256, 0, s1>>>(2.0, x, y, n);
    axpy<<<blocks, 256, 0, s1>>>(2.0, x, y, n);
    check(cudaEventRecord(e[3], s1), "cudaEventRecord");
    check(cudaEventRecord(e[4], s2), "cudaEventRecord");
    axpy<<<blocks, 256, 0, s2>>>(2.0, x, y, n);
    check(cudaEventRecord(e[5], s2), "cudaEventRecord");
    check(cudaStreamSynchronize(s1), "cudaStreamSynchronize");
    check(cudaStreamSynchronize(s2), "cudaStreamSynchronize");
    float queued[2];
    check(cudaEventElapsedTime(&queued[0], e[2], e[3]), "cudaEventElapsedTime");
    check(cudaEventElapsedTime(&queued[1], e[4], e[5]), "cudaEventElapsedTime");
    if (rank == 0) {
      printf("share_queued_seconds %.9f\n", queued[0] / 1e3);
      printf("share_queued_other_seconds %.9f\n", queued[1] / 1e3);
      printf("share_alone_seconds %.9f\n", alone / 1e3);
      printf("share_first_seconds %.9f\n", ms[0] / 1e3);
      printf("share_second_seconds %.9f\n", ms[1] / 1e3);
      printf("share_memset_seconds %.9f\n", ms[2] / 1e3);
      printf("share_late_start_seconds %.9f\n", ms[3] / 1e3);
      printf("share_late_seconds %.9f\n", ms[4] / 1e3);
    }
  }
  double t1 = MPI_Wtime(), first, last;
  MPI_Reduce(&t0, &first, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&t1, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%s_seconds %.9f\n", what, last - first);
  cudaFree(dev);
  cudaFree(dev2);
  MPI_Finalize();
  return 0;
}
