// The five BabelStream kernels (copy, mul, add, triad, dot) in double
// precision on three arrays of 2^25 elements (268 MB each), blocks of 1024
// threads, dot with 4 blocks per SM reducing in shared memory and a
// host-side sum of the partial sums: the method of BabelStream's CUDA
// version (UoB-HPC/BabelStream), which its published results use. Each
// kernel is timed alone (launch + synchronise) over 20 iterations; the
// best time gives the bandwidth, as BabelStream reports it.
// Output: kernel,elements,GB/s
#include "common.h"

#include <vector>

const int Threads = 1024;

__global__ void copyKernel(const double *A, double *C, int N) {
  int I = blockDim.x * blockIdx.x + threadIdx.x;
  if (I < N)
    C[I] = A[I];
}

__global__ void mulKernel(double *B, const double *C, double Scalar, int N) {
  int I = blockDim.x * blockIdx.x + threadIdx.x;
  if (I < N)
    B[I] = Scalar * C[I];
}

__global__ void addKernel(const double *A, const double *B, double *C, int N) {
  int I = blockDim.x * blockIdx.x + threadIdx.x;
  if (I < N)
    C[I] = A[I] + B[I];
}

__global__ void triadKernel(double *A, const double *B, const double *C,
                            double Scalar, int N) {
  int I = blockDim.x * blockIdx.x + threadIdx.x;
  if (I < N)
    A[I] = B[I] + Scalar * C[I];
}

__global__ void dotKernel(const double *A, const double *B, double *Sums,
                          int N) {
  __shared__ double Partial[Threads];
  int I = blockDim.x * blockIdx.x + threadIdx.x;
  double Sum = 0;
  for (; I < N; I += blockDim.x * gridDim.x)
    Sum += A[I] * B[I];
  Partial[threadIdx.x] = Sum;
  for (int Offset = blockDim.x / 2; Offset > 0; Offset /= 2) {
    __syncthreads();
    if (threadIdx.x < Offset)
      Partial[threadIdx.x] += Partial[threadIdx.x + Offset];
  }
  if (threadIdx.x == 0)
    Sums[blockIdx.x] = Partial[0];
}

int main() {
  const int N = 1 << 25, Iters = 20;
  const double Scalar = 0.4;
  const int DotBlocks = 4 * smCount();
  double *A, *B, *C, *Sums;
  CHECK(cudaMalloc(&A, N * sizeof(double)));
  CHECK(cudaMalloc(&B, N * sizeof(double)));
  CHECK(cudaMalloc(&C, N * sizeof(double)));
  CHECK(cudaMalloc(&Sums, DotBlocks * sizeof(double)));
  std::vector<double> HostSums(DotBlocks);
  CHECK(cudaMemset(A, 0, N * sizeof(double)));
  CHECK(cudaMemset(B, 0, N * sizeof(double)));
  CHECK(cudaMemset(C, 0, N * sizeof(double)));
  const int Blocks = N / Threads;
  const char *Names[5] = {"copy", "mul", "add", "triad", "dot"};
  const double Arrays[5] = {2, 2, 3, 3, 2};
  double Best[5] = {1e30, 1e30, 1e30, 1e30, 1e30};
  for (int It = 0; It < Iters; ++It) {
    double T[6];
    T[0] = seconds();
    copyKernel<<<Blocks, Threads>>>(A, C, N);
    CHECK(cudaDeviceSynchronize());
    T[1] = seconds();
    mulKernel<<<Blocks, Threads>>>(B, C, Scalar, N);
    CHECK(cudaDeviceSynchronize());
    T[2] = seconds();
    addKernel<<<Blocks, Threads>>>(A, B, C, N);
    CHECK(cudaDeviceSynchronize());
    T[3] = seconds();
    triadKernel<<<Blocks, Threads>>>(A, B, C, Scalar, N);
    CHECK(cudaDeviceSynchronize());
    T[4] = seconds();
    dotKernel<<<DotBlocks, Threads>>>(A, B, Sums, N);
    CHECK(cudaMemcpy(HostSums.data(), Sums, DotBlocks * sizeof(double),
                     cudaMemcpyDeviceToHost));
    double Sum = 0;
    for (double S : HostSums)
      Sum += S;
    (void)Sum;
    T[5] = seconds();
    if (It == 0)
      continue; // BabelStream skips the first iteration
    for (int K = 0; K < 5; ++K)
      Best[K] = T[K + 1] - T[K] < Best[K] ? T[K + 1] - T[K] : Best[K];
  }
  for (int K = 0; K < 5; ++K)
    std::printf("%s,%d,%.1f\n", Names[K], N,
                Arrays[K] * N * sizeof(double) / Best[K] * 1e-9);
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(C));
  CHECK(cudaFree(Sums));
  return 0;
}
