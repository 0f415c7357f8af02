/* min and max on integers and floating point in host code, as nvcc's CUDA
 * headers declare them (__host__ __device__ in crt/math_functions.hpp):
 * published codes call them from host functions, and clang's CUDA headers
 * declare only the __device__ ones ("call to __device__ function from
 * __host__ function"). Host overloads beside clang's device ones. */
#ifndef ORRERY_HOST_MINMAX_H
#define ORRERY_HOST_MINMAX_H

#if defined(__cplusplus) && defined(__CUDA__) && defined(__clang__)

#define ORRERY_HOST_MINMAX(T, U, R)                                            \
  static inline __host__ R min(T a, U b) {                                     \
    return (R)a < (R)b ? (R)a : (R)b;                                          \
  }                                                                            \
  static inline __host__ R max(T a, U b) {                                     \
    return (R)a > (R)b ? (R)a : (R)b;                                          \
  }

ORRERY_HOST_MINMAX(int, int, int)
ORRERY_HOST_MINMAX(unsigned int, unsigned int, unsigned int)
ORRERY_HOST_MINMAX(int, unsigned int, unsigned int)
ORRERY_HOST_MINMAX(unsigned int, int, unsigned int)
ORRERY_HOST_MINMAX(long, long, long)
ORRERY_HOST_MINMAX(unsigned long, unsigned long, unsigned long)
ORRERY_HOST_MINMAX(long, unsigned long, unsigned long)
ORRERY_HOST_MINMAX(unsigned long, long, unsigned long)
ORRERY_HOST_MINMAX(long long, long long, long long)
ORRERY_HOST_MINMAX(unsigned long long, unsigned long long, unsigned long long)
ORRERY_HOST_MINMAX(long long, unsigned long long, unsigned long long)
ORRERY_HOST_MINMAX(unsigned long long, long long, unsigned long long)
ORRERY_HOST_MINMAX(float, float, float)
ORRERY_HOST_MINMAX(double, double, double)
ORRERY_HOST_MINMAX(float, double, double)
ORRERY_HOST_MINMAX(double, float, double)

#undef ORRERY_HOST_MINMAX

#endif
#endif
