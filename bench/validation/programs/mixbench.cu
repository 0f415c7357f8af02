// Operational-intensity sweep: the method of mixbench (ekondis/mixbench,
// CUDA, "alternating" mode): each thread reads 8 elements of a 64 MB
// buffer at a grid stride, applies 1 + 2 x iters fused multiply-adds to
// each and writes it back, so flops per byte grow with iters while the
// traffic stays 2 x element size per element. Blocks of 256 threads.
// Output: "sp"|"dp",flops per byte,GFLOP/s
#include "common.h"

const int Threads = 256, PerThread = 8;

template <typename T>
__global__ void mix(T *Data, T Seed, int Iters, long long N) {
  long long Stride = (long long)gridDim.x * blockDim.x;
  long long Base = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  for (int J = 0; J < PerThread; ++J) {
    long long I = Base + J * Stride;
    if (I >= N)
      return;
    T V = Data[I];
    V = V * V + Seed;
    for (int K = 0; K < Iters; ++K) {
      V = V * V + Seed;
      V = V * V + Seed;
    }
    Data[I] = V;
  }
}

template <typename T> void sweep(const char *Name) {
  const long long Bytes = 64ll << 20, N = Bytes / sizeof(T);
  T *Data;
  CHECK(cudaMalloc(&Data, Bytes));
  CHECK(cudaMemset(Data, 0, Bytes));
  const int Blocks = int(N / (Threads * PerThread));
  for (int Iters = 0; Iters <= 6; ++Iters) {
    mix<T><<<Blocks, Threads>>>(Data, T(0.5), Iters, N);
    CHECK(cudaDeviceSynchronize());
    // Timed with events around the launch, as mixbench does.
    cudaEvent_t Start, Stop;
    CHECK(cudaEventCreate(&Start));
    CHECK(cudaEventCreate(&Stop));
    double Best = 1e30;
    for (int Rep = 0; Rep < 5; ++Rep) {
      CHECK(cudaEventRecord(Start));
      mix<T><<<Blocks, Threads>>>(Data, T(0.5), Iters, N);
      CHECK(cudaEventRecord(Stop));
      CHECK(cudaEventSynchronize(Stop));
      float Ms = 0;
      CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
      Best = Ms * 1e-3 < Best ? Ms * 1e-3 : Best;
    }
    CHECK(cudaEventDestroy(Start));
    CHECK(cudaEventDestroy(Stop));
    double Flops = double(N) * 2 * (1 + 2 * Iters);
    std::printf("%s,%.3f,%.1f\n", Name, Flops / (2.0 * Bytes),
                Flops / Best * 1e-9);
  }
  CHECK(cudaFree(Data));
}

int main() {
  sweep<float>("sp");
  sweep<double>("dp");
  return 0;
}
