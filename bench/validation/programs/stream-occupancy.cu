// Streaming kernels by occupancy: the method of gpu-stream (te42kyfo/
// gpu-benches). Each kernel runs on 128 Mi + 2 doubles per array with
// blocks of 32..1024 threads while dynamic shared memory allows only two
// blocks per SM, so the resident warps per SM grow from 2 to 64; the
// bandwidth of each kernel (bytes of all arrays it streams / time of one
// launch, from two back-to-back launches) is printed per occupancy.
// Output: kernel,threads per block,GB/s (occupancy: 2 x threads per block /
// the SM's maximum threads).
#include "common.h"

#include <cstdint>
#include <vector>

const size_t N = 128l * 1024 * 1024 + 2;

__global__ void initKernel(double *A, const double *__restrict__ B,
                           const double *__restrict__ C, size_t N) {
  size_t I = threadIdx.x + size_t(blockIdx.x) * blockDim.x;
  if (I >= N)
    return;
  A[I] = 0.23;
}

__global__ void readKernel(double *A, const double *__restrict__ B,
                           const double *__restrict__ C, size_t N) {
  size_t I = threadIdx.x + size_t(blockIdx.x) * blockDim.x;
  if (I >= N)
    return;
  double V = B[I];
  // Never true on the data: keeps the load without a store.
#pragma orrery branch_prob(0)
  if (V == 123.0)
    A[I] = V;
}

__global__ void scaleKernel(double *A, const double *__restrict__ B,
                            const double *__restrict__ C, size_t N) {
  size_t I = threadIdx.x + size_t(blockIdx.x) * blockDim.x;
  if (I >= N)
    return;
  A[I] = B[I] * 1.2;
}

__global__ void triadKernel(double *A, const double *__restrict__ B,
                            const double *__restrict__ C, size_t N) {
  size_t I = threadIdx.x + size_t(blockIdx.x) * blockDim.x;
  if (I >= N)
    return;
  A[I] = B[I] * 1.2 + C[I];
}

__global__ void stencil3Kernel(double *A, const double *__restrict__ B,
                               const double *__restrict__ C, size_t N) {
  size_t I = threadIdx.x + size_t(blockIdx.x) * blockDim.x;
  if (I >= N - 1 || I == 0)
    return;
  A[I] = 0.5 * B[I - 1] - 1.0 * B[I] + 0.5 * B[I + 1];
}

__global__ void stencil5Kernel(double *A, const double *__restrict__ B,
                               const double *__restrict__ C, size_t N) {
  size_t I = threadIdx.x + size_t(blockIdx.x) * blockDim.x;
  if (I >= N - 2 || I < 2)
    return;
  A[I] = 0.25 * B[I - 2] + 0.25 * B[I - 1] - 1.0 * B[I] + 0.5 * B[I + 1] +
         0.5 * B[I + 2];
}

using KernelFn = void (*)(double *, const double *, const double *, size_t);

struct Kernel {
  const char *Name;
  KernelFn Fn;
  int Streams; ///< arrays streamed: counted in the bandwidth
};

/// Dynamic shared memory per block that leaves room for exactly two
/// resident blocks of \p Threads threads (the largest amount that does).
size_t twoBlocksShared(KernelFn Fn, int Threads) {
  int Dev = 0, PerSm = 0;
  CHECK(cudaGetDevice(&Dev));
  CHECK(cudaDeviceGetAttribute(
      &PerSm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, Dev));
  CHECK(cudaFuncSetAttribute(Fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             PerSm / 2));
  for (size_t Bytes = PerSm / 2; Bytes >= 1024; Bytes -= 1024) {
    int Blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, Fn, Threads,
                                                        Bytes));
    if (Blocks == 2)
      return Bytes;
  }
  std::fprintf(stderr, "no shared-memory size gives two blocks per SM\n");
  std::exit(1);
}

int main() {
  double *A, *B, *C;
  CHECK(cudaMalloc(&A, N * sizeof(double)));
  CHECK(cudaMalloc(&B, N * sizeof(double)));
  CHECK(cudaMalloc(&C, N * sizeof(double)));
  CHECK(cudaMemset(B, 0, N * sizeof(double)));
  CHECK(cudaMemset(C, 0, N * sizeof(double)));
  const Kernel Kernels[] = {
      {"init", initKernel, 1},    {"read", readKernel, 1},
      {"scale", scaleKernel, 2},  {"triad", triadKernel, 3},
      {"3pt", stencil3Kernel, 2}, {"5pt", stencil5Kernel, 2}};
  for (int Threads = 32; Threads <= 1024; Threads += 32) {
    for (const Kernel &K : Kernels) {
      size_t Shared = twoBlocksShared(K.Fn, Threads);
      unsigned Blocks = unsigned(N / Threads + 1);
      K.Fn<<<Blocks, Threads, Shared>>>(A, B, C, N);
      CHECK(cudaDeviceSynchronize());
      double Best = 1e30;
      for (int Rep = 0; Rep < 3; ++Rep) {
        double T0 = seconds();
        K.Fn<<<Blocks, Threads, Shared>>>(A, B, C, N);
        K.Fn<<<Blocks, Threads, Shared>>>(A, B, C, N);
        CHECK(cudaDeviceSynchronize());
        double T = (seconds() - T0) / 2;
        Best = T < Best ? T : Best;
      }
      std::printf("%s,%d,%.1f\n", K.Name, Threads,
                  K.Streams * N * sizeof(double) / Best * 1e-9);
    }
  }
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(C));
  return 0;
}
