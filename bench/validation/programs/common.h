// Shared by the validation programs: error checks and a host timer, as
// published GPU benchmarks time kernels (host clock around a synchronised
// batch of launches; Orrery simulates the clock).
#ifndef VALIDATION_COMMON_H
#define VALIDATION_COMMON_H

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

inline void checkResult(cudaError_t E, const char *Call, const char *File,
                        int Line) {
  if (E == cudaSuccess)
    return;
  std::fprintf(stderr, "%s:%d: %s: %s\n", File, Line, Call,
               cudaGetErrorString(E));
  std::exit(1);
}

#define CHECK(call) checkResult((call), #call, __FILE__, __LINE__)

inline double seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The best host time of \p Runs calls of \p Launch, each synchronised.
template <typename LaunchFn> double bestOf(int Runs, LaunchFn Launch) {
  double Best = 1e30;
  for (int Run = 0; Run < Runs; ++Run) {
    double T0 = seconds();
    Launch();
    CHECK(cudaDeviceSynchronize());
    double T = seconds() - T0;
    Best = T < Best ? T : Best;
  }
  return Best;
}

inline int smCount() {
  int Dev = 0, N = 0;
  CHECK(cudaGetDevice(&Dev));
  CHECK(cudaDeviceGetAttribute(&N, cudaDevAttrMultiProcessorCount, Dev));
  return N;
}

#endif
