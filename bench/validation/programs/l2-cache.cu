// Data-volume sweep through the L2: the method of gpu-l2-cache (te42kyfo/
// gpu-benches). 200,000 blocks of 1024 threads each read a 512 kB slice of
// doubles; `runs` distinct slices exist, so the data set is runs x 512 kB
// and every slice is read by 200,000 / runs blocks: from the L2 while the
// data set fits there, from device memory beyond. No block reads its slice
// twice, so the L1 does not help. Bandwidth = 512 kB x blocks / time of one
// launch, the best of several.
// Output: l2,data set (kB),GB/s
#include "common.h"

#include <algorithm>

const int BlockSize = 1024;
const int Slice = 64; // doubles per thread and slice

__global__ void initKernel(double *A, size_t N) {
  size_t Tid = blockDim.x * blockIdx.x + threadIdx.x;
  for (size_t I = Tid; I < N; I += blockDim.x * gridDim.x)
    A[I] = 1.1;
}

__global__ void sumKernel(double *A, const double *__restrict__ B, int Runs) {
  double Sum = 0;
  for (int I = 0; I < Slice / 2; I++) {
    int Idx = (blockDim.x * Runs * I + (blockIdx.x % Runs) * BlockSize) * 2 +
              threadIdx.x;
    Sum += B[Idx] * B[Idx + BlockSize];
  }
  Sum *= 1.3;
  // Never true on the data: keeps the sum alive without a store.
#pragma orrery branch_prob(0)
  if (threadIdx.x > 1233 || Sum == 23.12)
    A[threadIdx.x] += Sum;
}

int main(int argc, char **argv) {
  // Optional: the largest data set in kB.
  double MaxKb = argc > 1 ? std::atof(argv[1]) : 5e6;
  const int Blocks = 200000;
  for (int Runs = 2; Runs < 10000; Runs += std::max(1.0, Runs * 0.1)) {
    double SliceBytes = double(Slice) * BlockSize * sizeof(double);
    if (SliceBytes * Runs / 1024 > MaxKb)
      break;
    size_t N = size_t(Runs) * BlockSize * Slice;
    double *A, *B;
    CHECK(cudaMalloc(&A, N * sizeof(double)));
    CHECK(cudaMalloc(&B, N * sizeof(double)));
    initKernel<<<52, 256>>>(A, N);
    initKernel<<<52, 256>>>(B, N);
    CHECK(cudaDeviceSynchronize());
    double Best =
        bestOf(3, [&] { sumKernel<<<Blocks, BlockSize>>>(A, B, Runs); });
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    std::printf("l2,%.0f,%.1f\n", SliceBytes * Runs / 1024,
                SliceBytes * Blocks / Best / 1e9);
  }
  return 0;
}
