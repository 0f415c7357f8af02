// orrery-probe-gpu: GPU micro-benchmarks for orrery-calibrate --gpu.
//
//   orrery-probe-gpu [MAX_BYTES]
//
// Prints one "NAME SIZE SECONDS" line per measurement (SIZE: bytes, or
// floating-point operations for the fma_* kernels, dependent loads for
// strided_chase, operations for atomic_*; 0 for fixed costs), on GPU 0
// (peer copies: GPU 0 to GPU 1 when there are two with peer access). Copies are timed on the host around the synchronous call (what a
// program waits for: the call's overhead included), device work with CUDA
// events; each point is the best of 5. Exits with status 3 and a message
// when there is no usable GPU.

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

void check(cudaError_t E, const char *What) {
  if (E != cudaSuccess) {
    std::fprintf(stderr, "orrery-probe-gpu: error: %s: %s\n", What,
                 cudaGetErrorString(E));
    std::exit(1);
  }
}

double wallNow() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

const int Repeats = 5;

__global__ void emptyKernel() {}

__global__ void triad(double *A, const double *B, const double *C, double S,
                      size_t N) {
  size_t I = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  size_t Stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (; I < N; I += Stride)
    A[I] = B[I] + S * C[I];
}

// Eight independent FMA chains per thread keep the pipes busy; the result is
// stored so the compiler keeps the work.
template <typename T>
__global__ void fmaChains(T *Out, int Iterations, T X) {
  T A[8];
  for (int K = 0; K < 8; ++K)
    A[K] = X + static_cast<T>(threadIdx.x + K);
  for (int I = 0; I < Iterations; ++I)
    for (int K = 0; K < 8; ++K)
      A[K] = A[K] * X + static_cast<T>(0.5);
  T Sum = 0;
  for (int K = 0; K < 8; ++K)
    Sum += A[K];
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Sum;
}

// Dependent loads: each load's address is the value of the previous one,
// so the loads cannot overlap and each costs one memory latency. The stride
// (Next[i] = i + 4 KiB + 8 B) puts every load in a new DRAM page and cache
// line.
__global__ void stridedChase(const size_t *Next, size_t Loads, size_t *Out) {
  size_t I = 0;
  for (size_t L = 0; L < Loads; ++L)
    I = Next[I];
  *Out = I;
}

__global__ void fillChase(size_t *Next, size_t N, size_t Stride) {
  size_t I = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  for (; I < N; I += static_cast<size_t>(gridDim.x) * blockDim.x)
    Next[I] = (I + Stride) % N;
}

// A streaming copy through a tile of dynamic shared memory. The tile's size
// sets how many blocks fit on an SM, hence the occupancy the stream runs at.
__global__ void sharedStream(double *Dst, const double *Src, size_t N) {
  extern __shared__ double Tile[];
  size_t I = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  size_t Stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (; I < N; I += Stride) {
    Tile[threadIdx.x] = Src[I];
    __syncthreads();
    Dst[I] = Tile[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
  }
}

// Atomic additions: every thread on its own address (Spread = threads), or
// all threads of a block on one (Spread = blocks).
__global__ void atomics(double *Sums, size_t Spread, int Rounds) {
  size_t T = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  double *Target = Sums + (Spread == gridDim.x ? blockIdx.x : T);
  for (int R = 0; R < Rounds; ++R)
    atomicAdd(Target, 1.0);
}

/// Host time of one synchronous copy, best of Repeats.
double hostTimedCopy(void *Dst, const void *Src, size_t Bytes,
                     cudaMemcpyKind Kind) {
  double Best = 1e30;
  for (int R = 0; R < Repeats; ++R) {
    double T0 = wallNow();
    check(cudaMemcpy(Dst, Src, Bytes, Kind), "cudaMemcpy");
    double T = wallNow() - T0;
    Best = T < Best ? T : Best;
  }
  return Best;
}

template <typename F> double eventTimed(F Work) {
  cudaEvent_t A, B;
  check(cudaEventCreate(&A), "cudaEventCreate");
  check(cudaEventCreate(&B), "cudaEventCreate");
  double Best = 1e30;
  for (int R = 0; R < Repeats; ++R) {
    check(cudaEventRecord(A), "cudaEventRecord");
    Work();
    check(cudaEventRecord(B), "cudaEventRecord");
    check(cudaEventSynchronize(B), "cudaEventSynchronize");
    float Ms = 0;
    check(cudaEventElapsedTime(&Ms, A, B), "cudaEventElapsedTime");
    double T = Ms * 1e-3;
    Best = T < Best ? T : Best;
  }
  cudaEventDestroy(A);
  cudaEventDestroy(B);
  return Best;
}

void copies(size_t MaxBytes) {
  char *Pageable = static_cast<char *>(std::malloc(MaxBytes));
  char *Pinned = nullptr, *Dev = nullptr, *Dev2 = nullptr;
  if (!Pageable) {
    std::fprintf(stderr, "orrery-probe-gpu: error: malloc(%zu) failed\n",
                 MaxBytes);
    std::exit(1);
  }
  std::memset(Pageable, 1, MaxBytes);
  check(cudaMallocHost(&Pinned, MaxBytes), "cudaMallocHost");
  check(cudaMalloc(&Dev, MaxBytes), "cudaMalloc");
  check(cudaMalloc(&Dev2, MaxBytes), "cudaMalloc");
  std::memset(Pinned, 1, MaxBytes);
  for (size_t N = 8; N <= MaxBytes; N *= 2) {
    std::printf("h2d_pageable %zu %.9g\n", N,
                hostTimedCopy(Dev, Pageable, N, cudaMemcpyHostToDevice));
    std::printf("h2d_pinned %zu %.9g\n", N,
                hostTimedCopy(Dev, Pinned, N, cudaMemcpyHostToDevice));
    std::printf("d2h_pageable %zu %.9g\n", N,
                hostTimedCopy(Pageable, Dev, N, cudaMemcpyDeviceToHost));
    std::printf("d2h_pinned %zu %.9g\n", N,
                hostTimedCopy(Pinned, Dev, N, cudaMemcpyDeviceToHost));
    std::printf("d2d %zu %.9g\n", N, eventTimed([&] {
                  check(cudaMemcpyAsync(Dev2, Dev, N, cudaMemcpyDeviceToDevice),
                        "cudaMemcpyAsync");
                }));
  }
  cudaFree(Dev2);
  cudaFree(Dev);
  cudaFreeHost(Pinned);
  std::free(Pageable);
}

/// GPU 0 to GPU 1 with cudaMemcpyPeerAsync, timed with events on GPU 0.
void peerCopies(size_t MaxBytes) {
  int Count = 0, CanAccess = 0;
  check(cudaGetDeviceCount(&Count), "cudaGetDeviceCount");
  if (Count < 2) {
    std::printf("# peer: one GPU, no peer copies\n");
    return;
  }
  check(cudaDeviceCanAccessPeer(&CanAccess, 0, 1), "cudaDeviceCanAccessPeer");
  if (!CanAccess) {
    std::printf("# peer: GPU 0 cannot access GPU 1, no peer copies\n");
    return;
  }
  char *Src = nullptr, *Dst = nullptr;
  check(cudaSetDevice(1), "cudaSetDevice");
  check(cudaMalloc(&Dst, MaxBytes), "cudaMalloc");
  check(cudaSetDevice(0), "cudaSetDevice");
  check(cudaMalloc(&Src, MaxBytes), "cudaMalloc");
  cudaError_t E = cudaDeviceEnablePeerAccess(1, 0);
  if (E != cudaErrorPeerAccessAlreadyEnabled)
    check(E, "cudaDeviceEnablePeerAccess");
  for (size_t N = 8; N <= MaxBytes; N *= 2)
    std::printf("peer %zu %.9g\n", N, eventTimed([&] {
                  check(cudaMemcpyPeerAsync(Dst, 1, Src, 0, N),
                        "cudaMemcpyPeerAsync");
                }));
  cudaFree(Src);
  check(cudaSetDevice(1), "cudaSetDevice");
  cudaFree(Dst);
  check(cudaSetDevice(0), "cudaSetDevice");
}

/// The dependent strided loads, the shared-memory stream at four
/// occupancies and the atomics.
void memorySuite(size_t MaxBytes, int Sms) {
  size_t N = MaxBytes / sizeof(size_t);
  size_t *Next, *Out;
  check(cudaMalloc(&Next, N * sizeof(size_t)), "cudaMalloc");
  check(cudaMalloc(&Out, sizeof(size_t)), "cudaMalloc");
  fillChase<<<4u * Sms, 256>>>(Next, N, (4096 + 8) / sizeof(size_t));
  for (size_t Loads = 1024; Loads <= 32768; Loads *= 2)
    std::printf("strided_chase %zu %.9g\n", Loads,
                eventTimed([&] { stridedChase<<<1, 1>>>(Next, Loads, Out); }));
  cudaFree(Out);
  cudaFree(Next);

  // 256 threads a block; a tile of SharedPerSm / Blocks bytes lets Blocks
  // blocks on an SM: occupancy Blocks x 256 / max threads per SM.
  cudaDeviceProp P;
  check(cudaGetDeviceProperties(&P, 0), "cudaGetDeviceProperties");
  size_t Elems = MaxBytes / 2 / sizeof(double);
  double *A, *B;
  check(cudaMalloc(&A, Elems * sizeof(double)), "cudaMalloc");
  check(cudaMalloc(&B, Elems * sizeof(double)), "cudaMalloc");
  check(cudaMemset(B, 0, Elems * sizeof(double)), "cudaMemset");
  check(cudaFuncSetAttribute(sharedStream,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(P.sharedMemPerBlockOptin)),
        "cudaFuncSetAttribute");
  int MaxBlocks = P.maxThreadsPerMultiProcessor / 256;
  for (int Blocks = 1; Blocks <= MaxBlocks; Blocks *= 2) {
    size_t Shared = P.sharedMemPerMultiprocessor / Blocks - 1024;
    if (Shared > P.sharedMemPerBlockOptin)
      Shared = P.sharedMemPerBlockOptin;
    int Fit = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Fit, sharedStream,
                                                        256, Shared),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    double Occupancy = Fit * 256.0 / P.maxThreadsPerMultiProcessor;
    for (size_t Part = Elems / 4; Part <= Elems; Part *= 2)
      std::printf("shared_stream@%.4f %zu %.9g\n", Occupancy,
                  2 * Part * sizeof(double), eventTimed([&] {
                    sharedStream<<<static_cast<unsigned>(Fit) * Sms, 256,
                                   Shared>>>(A, B, Part);
                  }));
  }
  cudaFree(A);
  cudaFree(B);

  double *Sums;
  unsigned Blocks = 4u * Sms;
  check(cudaMalloc(&Sums, Blocks * 256 * sizeof(double)), "cudaMalloc");
  for (int Rounds = 16; Rounds <= 256; Rounds *= 4) {
    double Ops = static_cast<double>(Blocks) * 256 * Rounds;
    std::printf("atomic_distinct %.0f %.9g\n", Ops, eventTimed([&] {
                  atomics<<<Blocks, 256>>>(Sums, Blocks * 256, Rounds);
                }));
    std::printf("atomic_contended %.0f %.9g\n", Ops, eventTimed([&] {
                  atomics<<<Blocks, 256>>>(Sums, Blocks, Rounds);
                }));
  }
  check(cudaGetLastError(), "a probe kernel");
  cudaFree(Sums);
}

void fixedCosts() {
  const int N = 2000;
  emptyKernel<<<1, 1>>>();
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  // Launch: the host's cost of one asynchronous launch.
  double T0 = wallNow();
  for (int I = 0; I < N; ++I)
    emptyKernel<<<1, 1>>>();
  double Launch = (wallNow() - T0) / N;
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::printf("launch 0 %.9g\n", Launch);
  // The device time of an empty kernel.
  std::printf("empty_kernel 0 %.9g\n",
              eventTimed([] { emptyKernel<<<1, 1>>>(); }));
  // Synchronizing with an idle stream, and recording + waiting for an event.
  cudaStream_t S;
  check(cudaStreamCreate(&S), "cudaStreamCreate");
  T0 = wallNow();
  for (int I = 0; I < N; ++I)
    check(cudaStreamSynchronize(S), "cudaStreamSynchronize");
  std::printf("sync 0 %.9g\n", (wallNow() - T0) / N);
  cudaEvent_t E;
  check(cudaEventCreateWithFlags(&E, cudaEventDisableTiming),
        "cudaEventCreateWithFlags");
  T0 = wallNow();
  for (int I = 0; I < N; ++I) {
    check(cudaEventRecord(E, S), "cudaEventRecord");
    check(cudaEventSynchronize(E), "cudaEventSynchronize");
  }
  std::printf("event_sync 0 %.9g\n", (wallNow() - T0) / N);
  cudaEventDestroy(E);
  cudaStreamDestroy(S);
}

void kernels(size_t MaxBytes) {
  // Streaming: 24 bytes per element moved; arrays up to MaxBytes each.
  size_t MaxN = MaxBytes / sizeof(double);
  double *A, *B, *C;
  check(cudaMalloc(&A, MaxN * sizeof(double)), "cudaMalloc");
  check(cudaMalloc(&B, MaxN * sizeof(double)), "cudaMalloc");
  check(cudaMalloc(&C, MaxN * sizeof(double)), "cudaMalloc");
  check(cudaMemset(B, 0, MaxN * sizeof(double)), "cudaMemset");
  check(cudaMemset(C, 0, MaxN * sizeof(double)), "cudaMemset");
  int Sms = 0;
  check(cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0),
        "cudaDeviceGetAttribute");
  for (size_t N = 1 << 16; N <= MaxN; N *= 2) {
    unsigned Blocks = static_cast<unsigned>((N + 255) / 256);
    if (Blocks > 32u * Sms)
      Blocks = 32u * Sms;
    std::printf("triad %zu %.9g\n", 24 * N,
                eventTimed([&] { triad<<<Blocks, 256>>>(A, B, C, 3.0, N); }));
  }
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  // Compute-bound: 2 FLOP per FMA, 8 chains, Iterations per chain.
  const int Iterations = 4096;
  float *OutF;
  double *OutD;
  unsigned MaxBlocks = 64u * Sms;
  check(cudaMalloc(&OutF, MaxBlocks * 256 * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&OutD, MaxBlocks * 256 * sizeof(double)), "cudaMalloc");
  for (unsigned Blocks = Sms; Blocks <= MaxBlocks; Blocks *= 2) {
    double Flops = 2.0 * 8 * Iterations * 256.0 * Blocks;
    std::printf("fma_fp64 %.0f %.9g\n", Flops, eventTimed([&] {
                  fmaChains<double><<<Blocks, 256>>>(OutD, Iterations, 0.999);
                }));
    std::printf("fma_fp32 %.0f %.9g\n", Flops, eventTimed([&] {
                  fmaChains<float><<<Blocks, 256>>>(OutF, Iterations, 0.999f);
                }));
  }
  check(cudaGetLastError(), "a probe kernel");
  cudaFree(OutF);
  cudaFree(OutD);
  memorySuite(MaxBytes, Sms);
}

} // namespace

int main(int Argc, char **Argv) {
  size_t MaxBytes = size_t(1) << 28;
  if (Argc > 1) {
    char *End = nullptr;
    unsigned long long V = std::strtoull(Argv[1], &End, 10);
    if (!*Argv[1] || *End || V < 1024) {
      std::fprintf(stderr,
                   "orrery-probe-gpu: error: MAX_BYTES '%s' is not a byte "
                   "count of at least 1024\n",
                   Argv[1]);
      return 2;
    }
    MaxBytes = V;
  }
  int Count = 0;
  cudaError_t E = cudaGetDeviceCount(&Count);
  if (E != cudaSuccess || Count < 1) {
    std::fprintf(stderr,
                 "orrery-probe-gpu: error: no usable GPU: cudaGetDeviceCount "
                 "%s; run the GPU probes on a machine with an NVIDIA GPU and "
                 "driver\n",
                 E != cudaSuccess ? cudaGetErrorString(E) : "found 0 devices");
    return 3;
  }
  check(cudaSetDevice(0), "cudaSetDevice");
  cudaDeviceProp P;
  check(cudaGetDeviceProperties(&P, 0), "cudaGetDeviceProperties");
  std::printf("# GPU 0: %s\n", P.name);
  std::fflush(stdout);
  fixedCosts();
  copies(MaxBytes);
  peerCopies(MaxBytes);
  kernels(MaxBytes);
  return 0;
}
