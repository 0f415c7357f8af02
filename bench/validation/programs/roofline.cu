// A flop-per-byte sweep across the roofline's ridge: the method of
// gpu-roofline (te42kyfo/gpu-benches), in FP32 and FP64. As many blocks of
// 256 threads as fit the GPU at once each read their own 4000 x 256
// elements of two arrays, pairwise, and run n dependent FMAs on each pair
// (2 + 2n flops per pair); 1000 launches back to back, timed together.
// FP32 only: the published sweeps are FP32.
// Output: fp32,n,GB/s (flops per byte: (2 + 2n) / 8)
#include "common.h"

#include <cstdlib>
#include <utility>

const int M = 4000, BlockSize = 256;

template <typename T> __global__ void initKernel(T *A, size_t N) {
  size_t Tid = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  for (size_t I = Tid; I < N; I += blockDim.x * size_t(gridDim.x))
    A[I] = T(I);
}

// N is a template argument, as in the published benchmark (one build per
// N): the compiler sees the trip count, unrolls small loops fully and
// larger ones by 4.
template <typename T, int N>
__global__ void fmaKernel(const T *__restrict__ A, const T *__restrict__ B,
                          T *C) {
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

/// The published sweep's n: 0, 1, 2, 4, then 8 to 512 in steps of 8.
constexpr int nOf(int I) { return I < 3 ? I : I == 3 ? 4 : 8 * (I - 3); }
constexpr int Points = 68;

struct Buffers {
  float *A, *B, *C;
  int Blocks;
  size_t Len;
};

template <int N> void measure(const Buffers &Buf, int MaxN) {
  if (N > MaxN)
    return;
  const int Launches = 1000;
  double Time = bestOf(1, [&] {
    for (int L = 0; L < Launches; ++L)
      fmaKernel<float, N><<<Buf.Blocks, BlockSize>>>(Buf.A, Buf.B, Buf.C);
  });
  std::printf("fp32,%d,%.1f\n", N,
              Launches * 2.0 * Buf.Len * sizeof(float) / Time / 1e9);
}

template <int... I>
void sweep(const Buffers &Buf, int MaxN, std::integer_sequence<int, I...>) {
  (measure<nOf(I)>(Buf, MaxN), ...);
}

int main(int argc, char **argv) {
  // Optional: the largest n.
  int MaxN = argc > 1 ? std::atoi(argv[1]) : 512;
  int PerSm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &PerSm, fmaKernel<float, 0>, BlockSize, 0));
  Buffers Buf;
  Buf.Blocks = smCount() * PerSm;
  Buf.Len = size_t(Buf.Blocks) * BlockSize * M;
  CHECK(cudaMalloc(&Buf.A, Buf.Len * sizeof(float)));
  CHECK(cudaMalloc(&Buf.B, Buf.Len * sizeof(float)));
  CHECK(cudaMalloc(&Buf.C, Buf.Blocks * sizeof(float)));
  initKernel<float><<<Buf.Blocks, 256>>>(Buf.A, Buf.Len);
  initKernel<float><<<Buf.Blocks, 256>>>(Buf.B, Buf.Len);
  CHECK(cudaDeviceSynchronize());
  sweep(Buf, MaxN, std::make_integer_sequence<int, Points>());
  CHECK(cudaFree(Buf.A));
  CHECK(cudaFree(Buf.B));
  CHECK(cudaFree(Buf.C));
  return 0;
}
