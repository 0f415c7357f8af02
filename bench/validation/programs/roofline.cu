// A flop-per-byte sweep across the roofline's ridge: the method of
// gpu-roofline (te42kyfo/gpu-benches), in FP32 and FP64. As many blocks of
// 256 threads as fit the GPU at once each read their own 4000 x 256
// elements of two arrays, pairwise, and run n dependent FMAs on each pair
// (2 + 2n flops per pair); 1000 launches back to back, timed together.
// Output: fp32|fp64,n,GB/s (flops per byte: (2 + 2n) / (2 x element size))
#include "common.h"

#include <cstdlib>

const int M = 4000, BlockSize = 256;

template <typename T> __global__ void initKernel(T *A, size_t N) {
  size_t Tid = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  for (size_t I = Tid; I < N; I += blockDim.x * size_t(gridDim.x))
    A[I] = T(I);
}

template <typename T>
__global__ void fmaKernel(const T *__restrict__ A, const T *__restrict__ B,
                          T *C, int N) {
  const T *SA = A + threadIdx.x + blockIdx.x * size_t(BlockSize) * M;
  const T *SB = B + threadIdx.x + blockIdx.x * size_t(BlockSize) * M;
  T Sum = 0;
#pragma unroll 1
  for (int I = 0; I < M; I += 2) {
    T X = SA[I * BlockSize], Y = SB[I * BlockSize];
    T V = X - Y;
    T X2 = SA[(I + 1) * BlockSize], Y2 = SB[(I + 1) * BlockSize];
    T V2 = X2 - Y2;
    for (int J = 0; J < N; J++) {
      V = V * X - Y;
      V2 = V2 * X2 - Y2;
    }
    Sum += V + V2;
  }
  if (threadIdx.x == 0)
    C[blockIdx.x] = Sum;
}

template <typename T> void sweep(const char *Name, int MaxN) {
  int PerSm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSm, fmaKernel<T>,
                                                      BlockSize, 0));
  int Blocks = smCount() * PerSm;
  size_t Len = size_t(Blocks) * BlockSize * M;
  T *A, *B, *C;
  CHECK(cudaMalloc(&A, Len * sizeof(T)));
  CHECK(cudaMalloc(&B, Len * sizeof(T)));
  CHECK(cudaMalloc(&C, Blocks * sizeof(T)));
  initKernel<T><<<Blocks, 256>>>(A, Len);
  initKernel<T><<<Blocks, 256>>>(B, Len);
  CHECK(cudaDeviceSynchronize());
  const int Launches = 1000;
  for (int N = 0; N <= MaxN; N = N < 8 ? (N == 0 ? 1 : N * 2) : N + 8) {
    double Time = bestOf(1, [&] {
      for (int L = 0; L < Launches; ++L)
        fmaKernel<T><<<Blocks, BlockSize>>>(A, B, C, N);
    });
    std::printf("%s,%d,%.1f\n", Name, N,
                Launches * 2.0 * Len * sizeof(T) / Time / 1e9);
  }
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(C));
}

int main(int argc, char **argv) {
  // Optional: the largest n.
  int MaxN = argc > 1 ? std::atoi(argv[1]) : 512;
  sweep<float>("fp32", MaxN);
  sweep<double>("fp64", MaxN);
  return 0;
}
