// Seeded random work on three streams of each rank's GPU: kernels of random
// sizes, memsets and copies within the GPU, and (mode "mix") waits of one
// stream for another's event, synchronizations and queries in between.
// Prints the time of the event recorded after each operation, from the
// first: sim-private-gpu.test compares them with and without private GPUs.
//
//   stream-mix local|mix SEED OPS
#include "cuda-check.h"

#include <cuda_runtime.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__global__ void axpy(double a, const double *x, double *y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

static unsigned long long State;

// A number in [0, n) (Knuth's MMIX LCG, high bits).
static long draw(long n) {
  State = State * 6364136223846793005ULL + 1442695040888963407ULL;
  return (long)((State >> 33) % (unsigned long long)n);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc != 4 || (strcmp(argv[1], "local") && strcmp(argv[1], "mix"))) {
    if (rank == 0)
      fprintf(stderr, "usage: stream-mix local|mix SEED OPS\n");
    MPI_Finalize();
    return 1;
  }
  int mix = !strcmp(argv[1], "mix");
  State = (unsigned long long)atol(argv[2]) * 7919 + (unsigned long long)rank;
  int ops = atoi(argv[3]);
  const char *local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  int devices = 1;
  check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  check(cudaSetDevice((local ? atoi(local) : 0) % devices), "cudaSetDevice");
  const long MaxElems = 1L << 22, BufBytes = 1L << 26;
  double *x, *y;
  char *buf;
  check(cudaMalloc((void **)&x, MaxElems * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&y, MaxElems * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&buf, BufBytes), "cudaMalloc");
  cudaStream_t s[3];
  for (int i = 0; i < 3; ++i)
    check(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking),
          "cudaStreamCreateWithFlags");
  cudaEvent_t *ev = (cudaEvent_t *)malloc((ops + 1) * sizeof(cudaEvent_t));
  for (int i = 0; i <= ops; ++i)
    check(cudaEventCreate(&ev[i]), "cudaEventCreate");
  check(cudaEventRecord(ev[0], s[0]), "cudaEventRecord");
  check(cudaStreamSynchronize(s[0]), "cudaStreamSynchronize");
  for (int i = 1; i <= ops; ++i) {
    cudaStream_t st = s[draw(3)];
    long kind = draw(mix ? 8 : 6);
    if (kind < 4) {
      long n = 1 + draw(MaxElems);
      axpy<<<(unsigned)((n + 255) / 256), 256, 0, st>>>(2.0, x, y, n);
    } else if (kind == 4) {
      check(cudaMemsetAsync(buf, 0, 1 + draw(BufBytes), st), "cudaMemsetAsync");
    } else if (kind == 5) {
      check(cudaMemcpyAsync(buf + BufBytes / 2, buf, 1 + draw(BufBytes / 2),
                            cudaMemcpyDeviceToDevice, st),
            "cudaMemcpyAsync");
    } else if (kind == 6) {
      // Another stream waits for everything queued on this one so far.
      check(cudaStreamWaitEvent(s[draw(3)], ev[i - 1], 0),
            "cudaStreamWaitEvent");
    } else if (draw(2)) {
      check(cudaStreamSynchronize(st), "cudaStreamSynchronize");
    } else {
      cudaError_t q = cudaEventQuery(ev[draw(i)]);
      if (q != cudaSuccess && q != cudaErrorNotReady)
        check(q, "cudaEventQuery");
    }
    check(cudaEventRecord(ev[i], st), "cudaEventRecord");
  }
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  for (int r = 0; r < 2; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (r != rank)
      continue;
    for (int i = 1; i <= ops; ++i) {
      float ms;
      check(cudaEventElapsedTime(&ms, ev[0], ev[i]), "cudaEventElapsedTime");
      printf("rank %d event %d ms %.6f\n", rank, i, ms);
    }
    fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
