// Repeated small kernels by data volume: the method of gpu-small-kernels
// (te42kyfo/gpu-benches). A SCALE kernel (A[i] = B[i] * 0.25, one element per
// thread) of n elements is queued many times on one stream, alternating
// the two arrays, launched one by one or replayed from one CUDA graph
// (-graph); the data volume 2 x 8 n bytes per launch over the time per
// launch is printed for blocks of 256 and 1024 threads. Volumes that fit in
// L2 stay there from one launch to the next; tiny ones are launch bound.
// Output: "stream|graph"-<threads>,n,GB/s
// Usage: small-kernels [-graph] [-iters N] [-every K]
//   -every K: measure every K-th volume of the published sweep (n from 4096,
//   n += max(1, 0.06 n), below 128 Mi).
#include "common.h"

#include <cstring>
#include <string>

__global__ void scale(double *__restrict__ A, const double *__restrict__ B,
                      int N) {
  int I = threadIdx.x + blockIdx.x * blockDim.x;
  if (I >= N)
    return;
  A[I] = B[I] * 0.25;
}

double perLaunch(double *A, double *B, int N, int Threads, int Iters,
                 bool Graph) {
  int Blocks = N / Threads + 1;
  cudaStream_t S;
  CHECK(cudaStreamCreate(&S));
  scale<<<Blocks, Threads, 0, S>>>(A, B, N);
  CHECK(cudaStreamSynchronize(S));
  double T = 0;
  if (Graph) {
    cudaGraph_t G;
    cudaGraphExec_t Exec;
    CHECK(cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal));
    for (int I = 0; I < Iters; I += 2) {
      scale<<<Blocks, Threads, 0, S>>>(A, B, N);
      scale<<<Blocks, Threads, 0, S>>>(B, A, N);
    }
    CHECK(cudaStreamEndCapture(S, &G));
    CHECK(cudaGraphInstantiate(&Exec, G, nullptr, nullptr, 0));
    CHECK(cudaGraphLaunch(Exec, S)); // upload and warm
    CHECK(cudaStreamSynchronize(S));
    double T0 = seconds();
    CHECK(cudaGraphLaunch(Exec, S));
    CHECK(cudaStreamSynchronize(S));
    T = seconds() - T0;
    CHECK(cudaGraphExecDestroy(Exec));
    CHECK(cudaGraphDestroy(G));
  } else {
    double T0 = seconds();
    for (int I = 0; I < Iters; I += 2) {
      scale<<<Blocks, Threads, 0, S>>>(A, B, N);
      scale<<<Blocks, Threads, 0, S>>>(B, A, N);
    }
    CHECK(cudaStreamSynchronize(S));
    T = seconds() - T0;
  }
  CHECK(cudaStreamDestroy(S));
  return T / Iters;
}

int main(int Argc, char **Argv) {
  bool Graph = false;
  int Iters = 2000, Every = 1;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "-graph"))
      Graph = true;
    else if (!std::strcmp(Argv[I], "-iters") && I + 1 < Argc)
      Iters = std::atoi(Argv[++I]);
    else if (!std::strcmp(Argv[I], "-every") && I + 1 < Argc)
      Every = std::atoi(Argv[++I]);
    else {
      std::fprintf(stderr, "usage: %s [-graph] [-iters N] [-every K]\n",
                   Argv[0]);
      return 2;
    }
  }
  const int Max = 8 * 16 * 1024 * 1024;
  double *A, *B;
  CHECK(cudaMalloc(&A, Max * sizeof(double)));
  CHECK(cudaMalloc(&B, Max * sizeof(double)));
  CHECK(cudaMemset(A, 0, Max * sizeof(double)));
  CHECK(cudaMemset(B, 0, Max * sizeof(double)));
  int Index = 0;
  for (int N = 4096; N<Max; N += N * 0.06> 1 ? int(N * 0.06) : 1, ++Index) {
    if (Index % Every)
      continue;
    for (int Threads : {256, 1024}) {
      double T = perLaunch(A, B, N, Threads, Iters, Graph);
      std::printf("%s-%d,%d,%.1f\n", Graph ? "graph" : "stream", Threads, N,
                  2.0 * N * sizeof(double) / T * 1e-9);
    }
  }
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  return 0;
}
