// Data-volume sweep through the L1: the method of gpu-cache (te42kyfo/
// gpu-benches). One block of 256 threads per SM reads the same buffer of N
// doubles over and over (about 10^9 elements per thread block in all), so
// the buffer is each SM's working set: in the L1 while it fits, from the L2
// beyond. Bandwidth = N x 8 bytes x blocks x repetitions / time of one
// launch, the best of several.
// Output: l1,data set (kB, as the benchmark prints it),GB/s
#include "common.h"

#include <algorithm>
#include <vector>

const int BlockSize = 256;

__global__ void initKernel(double *A, size_t N) {
  size_t Tid = blockDim.x * blockIdx.x + threadIdx.x;
  for (size_t I = Tid; I < N; I += blockDim.x * gridDim.x)
    A[I] = 1.1;
}

__global__ void sumKernel(double *A, const double *__restrict__ B, int N,
                          int Repetitions, int Zero) {
  double Sum = 0;
  B += threadIdx.x;
  for (int R = 0; R < Repetitions; R++) {
    B += Zero; // keeps the compiler from hoisting the loads out
#pragma unroll 32
    for (int I = 0; I < N; I += BlockSize)
      Sum += B[I];
    Sum *= 1.3;
  }
  // Never true on the data: keeps the sum alive without a store.
#pragma orrery branch_prob(0)
  if (Sum == 1233.0)
    A[threadIdx.x] += Sum;
}

// The benchmark's sizes: multiples of 256 and 512 elements up to 16 Ki, then
// a geometric series (x 1.17, truncated each step, rounded down to 512).
std::vector<size_t> sizes() {
  std::vector<size_t> Out{256, 512, 768};
  for (size_t K = 2; K <= 32; ++K)
    Out.push_back(K * 512);
  for (int S = 1; S < 50; ++S) {
    if (S == 15)
      continue;
    size_t V = 32 * 512;
    for (int I = 0; I < S; ++I)
      V = static_cast<size_t>(V * 1.17);
    Out.push_back(V / 512 * 512);
  }
  return Out;
}

int main(int argc, char **argv) {
  // Optional: the largest data set in kB (the published tables stop early).
  double MaxKb = argc > 1 ? std::atof(argv[1]) : 2000;
  int Sms = smCount();
  for (size_t N : sizes()) {
    if (N * 8.0 / 1024 > MaxKb)
      break;
    int Repetitions = static_cast<int>(1000000000 / N + 2);
    double *A, *B;
    CHECK(cudaMalloc(&A, N * sizeof(double)));
    CHECK(cudaMalloc(&B, N * sizeof(double)));
    initKernel<<<52, 256>>>(A, N);
    initKernel<<<52, 256>>>(B, N);
    CHECK(cudaDeviceSynchronize());
    double Best = bestOf(3, [&] {
      sumKernel<<<Sms, BlockSize>>>(A, B, static_cast<int>(N), Repetitions, 0);
    });
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    double Bytes = N * 8.0 * Sms * Repetitions;
    std::printf("l1,%.0f,%.1f\n", N * 8.0 / 1024, Bytes / Best / 1e9);
  }
  return 0;
}
