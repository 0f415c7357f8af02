// Dependent-load latency by data volume: the method of gpu-latency
// (te42kyfo/gpu-benches). One block of 64 threads follows a chain of
// pointers through a buffer in random order (one element in every 64
// bytes, each visited once per round), so every load waits for the one
// before it; the time per load is the latency of the level that holds the
// buffer: L1, L2 or device memory.
// Output: chase,buffer (kB, as the benchmark prints it),ns per load
#include "common.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

const int Skip = 8; // elements between two visited ones: 64 bytes

__global__ void chaseKernel(int64_t *Buf, int64_t *Sink, int64_t Steps) {
  int64_t *Idx = Buf;
#pragma unroll 1
  for (int64_t N = 0; N < Steps; N++)
    Idx = (int64_t *)*Idx;
    // Never true: keeps the chain alive without a store.
#pragma orrery branch_prob(0)
  if (threadIdx.x > 12313)
    Sink[0] = (int64_t)Idx;
}

int main(int argc, char **argv) {
  // Optional: the largest buffer in kB.
  double MaxKb = argc > 1 ? std::atof(argv[1]) : 400000;
  std::mt19937 Rng(42);
  for (int64_t Len = 16; Len < (1 << 24); Len = Len * 1.1 + 16) {
    if (Len * Skip * sizeof(int64_t) > 120 * 1024 * 1024)
      Len *= 1.5;
    size_t Bytes = Len * Skip * sizeof(int64_t);
    if (Bytes / 1024.0 > MaxKb)
      break;
    int64_t Steps = std::max<int64_t>(Len, 1000000);
    // A random cycle through every Skip-th element, as device addresses.
    std::vector<int64_t> Order(Len);
    for (int64_t I = 0; I < Len; ++I)
      Order[I] = I;
    std::shuffle(Order.begin() + 1, Order.end(), Rng);
    int64_t *Dev, *Sink;
    CHECK(cudaMalloc(&Dev, Bytes));
    CHECK(cudaMalloc(&Sink, sizeof(int64_t)));
    std::vector<int64_t> Host(Len * Skip, 0);
    for (int64_t I = 0; I < Len; ++I)
      Host[Order[I] * Skip] =
          reinterpret_cast<int64_t>(Dev + Order[(I + 1) % Len] * Skip);
    CHECK(cudaMemcpy(Dev, Host.data(), Bytes, cudaMemcpyHostToDevice));
    chaseKernel<<<1, 64>>>(Dev, Sink, Steps);
    CHECK(cudaDeviceSynchronize());
    double Best = bestOf(3, [&] { chaseKernel<<<1, 64>>>(Dev, Sink, Steps); });
    CHECK(cudaFree(Dev));
    CHECK(cudaFree(Sink));
    std::printf("chase,%lld,%.2f\n", static_cast<long long>(Bytes / 1024),
                Best / Steps * 1e9);
  }
  return 0;
}
