// A project header written for nvcc: its error check exists only there.
#pragma once
#include <cstdio>
#ifdef __NVCC__
#define GPU_ERROR(ans) check((ans), __FILE__, __LINE__)
inline void check(cudaError_t e, const char *f, int l) {
  if (e != cudaSuccess)
    std::printf("%s:%d: %s\n", f, l, cudaGetErrorString(e));
}
#endif
