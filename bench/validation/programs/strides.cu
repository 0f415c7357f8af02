// Strided loads through the L1: the method of gpu-strides (te42kyfo/
// gpu-benches). One block of 1024 threads on one SM; thread t reads 8
// elements around A + (t % 64) x stride over and over (the working set stays
// in the L1), 18 x 64 x 1024 loads per thread in all. A warp's load touches
// `stride` apart elements: coalesced at stride 1, one cache line per thread
// at large strides, bank conflicts at power-of-two strides.
// Output: float|double,stride,cycles per warp-wide load (the clock from
// cudaDevAttrClockRate)
#include "common.h"

const int Threads = 1024;
const int Loads = 18 * 64 * 1024;

template <typename T> __global__ void initKernel(T *A, size_t N) {
  size_t Tid = blockDim.x * blockIdx.x + threadIdx.x;
  for (size_t I = Tid; I < N; I += blockDim.x * gridDim.x)
    A[I] = T(0.1);
}

template <typename T>
__global__ void strideKernel(T *A, T *B, int Zero, int Stride) {
  T Sum = 0;
  T *P = A + (threadIdx.x % 64) * Stride;
#pragma unroll 1
  for (int N = 0; N < Loads; N += 8) {
    P += Zero; // keeps the compiler from hoisting the loads out
    Sum += P[0] * P[4];
    Sum += P[8] * P[12];
    Sum += P[20] * P[16];
    Sum += P[24] * P[28];
  }
  // Never true on the data: keeps the sum alive without a store.
#pragma orrery branch_prob(0)
  if (Sum == T(123123.23))
    B[threadIdx.x] = Sum;
}

template <typename T> void sweep(const char *Name, T *A, T *B, int MaxStride) {
  int Dev = 0, ClockKhz = 0;
  CHECK(cudaGetDevice(&Dev));
  CHECK(cudaDeviceGetAttribute(&ClockKhz, cudaDevAttrClockRate, Dev));
  for (int Stride = 0; Stride <= MaxStride; ++Stride) {
    double Best =
        bestOf(3, [&] { strideKernel<T><<<1, Threads>>>(A, B, 0, Stride); });
    double WarpLoads = double(Threads) * Loads / 32;
    std::printf("%s,%d,%.3f\n", Name, Stride,
                Best * ClockKhz * 1e3 / WarpLoads);
  }
}

int main(int argc, char **argv) {
  // Optional: the largest stride (elements).
  int MaxStride = argc > 1 ? std::atoi(argv[1]) : 64;
  size_t Len = size_t(64) * (MaxStride + 1) + 64;
  double *A, *B;
  CHECK(cudaMalloc(&A, Len * sizeof(double)));
  CHECK(cudaMalloc(&B, Threads * sizeof(double)));
  initKernel<<<64, 256>>>(A, Len);
  CHECK(cudaDeviceSynchronize());
  sweep<float>("float", reinterpret_cast<float *>(A),
               reinterpret_cast<float *>(B), MaxStride);
  sweep<double>("double", A, B, MaxStride);
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  return 0;
}
