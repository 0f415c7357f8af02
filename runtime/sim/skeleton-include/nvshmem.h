/*===- nvshmem.h - NVSHMEM's host API for simulated builds -------*- C -*-===*
 *
 * NVSHMEM's types, constants and calls as its documentation specifies them,
 * declared for skeleton builds, which link liborrery-sim-nccl instead of
 * libnvshmem: the host API (initialisation over MPI, the symmetric heap,
 * barriers, collectives and put/get on CUDA streams) is simulated on the
 * skeleton NCCL's cost model (docs/nccl.md, "NVSHMEM"); the device API is
 * declared so that kernels that call it compile (skeleton builds compile
 * host code only); the kernel analysis counts the bytes device-initiated
 * calls move (docs/kernel-cost.md, "NVSHMEM calls").
 * Written for Orrery; not NVSHMEM's header.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ORRERY_SKELETON_NVSHMEM_H
#define ORRERY_SKELETON_NVSHMEM_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#define NVSHMEM_MAJOR_VERSION 3
#define NVSHMEM_MINOR_VERSION 2
#define NVSHMEM_PATCH_VERSION 5
#define NVSHMEM_VENDOR_STRING "Orrery skeleton NVSHMEM"

#if defined(__CUDACC__) || defined(__CUDA__)
#define ORRERY_NVSHMEM_DEVICE __device__
#define ORRERY_NVSHMEM_HOSTDEVICE __host__ __device__
#else
#define ORRERY_NVSHMEM_DEVICE
#define ORRERY_NVSHMEM_HOSTDEVICE
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t nvshmem_team_t;
#define NVSHMEM_TEAM_INVALID -1
#define NVSHMEM_TEAM_WORLD 0
#define NVSHMEM_TEAM_SHARED 1
#define NVSHMEMX_TEAM_NODE 2

enum {
  NVSHMEM_CMP_EQ = 0,
  NVSHMEM_CMP_NE,
  NVSHMEM_CMP_GT,
  NVSHMEM_CMP_LE,
  NVSHMEM_CMP_LT,
  NVSHMEM_CMP_GE,
  NVSHMEM_CMP_SENTINEL = 0x7fffffff
};

enum {
  NVSHMEM_SIGNAL_SET = 9,
  NVSHMEM_SIGNAL_ADD = 10
};

enum {
  NVSHMEM_THREAD_SINGLE = 0,
  NVSHMEM_THREAD_FUNNELED,
  NVSHMEM_THREAD_SERIALIZED,
  NVSHMEM_THREAD_MULTIPLE
};

/* Initialisation, the PEs, the symmetric heap (host). */
void nvshmem_init(void);
int nvshmem_init_thread(int requested, int *provided);
void nvshmem_finalize(void);
int nvshmem_my_pe(void);
int nvshmem_n_pes(void);
int nvshmem_team_my_pe(nvshmem_team_t team);
int nvshmem_team_n_pes(nvshmem_team_t team);
void nvshmem_info_get_version(int *major, int *minor);
void *nvshmem_malloc(size_t size);
void *nvshmem_calloc(size_t count, size_t size);
void *nvshmem_align(size_t alignment, size_t size);
void nvshmem_free(void *ptr);
void *nvshmem_ptr(const void *dest, int pe);

/* Ordering and synchronisation (host; the barriers are also device calls
 * in NVSHMEM, declared below for kernels). */
ORRERY_NVSHMEM_HOSTDEVICE void nvshmem_quiet(void);
ORRERY_NVSHMEM_HOSTDEVICE void nvshmem_fence(void);
ORRERY_NVSHMEM_HOSTDEVICE void nvshmem_barrier_all(void);
ORRERY_NVSHMEM_HOSTDEVICE void nvshmem_sync_all(void);
ORRERY_NVSHMEM_HOSTDEVICE int nvshmem_team_sync(nvshmem_team_t team);

/* Contiguous put and get of bytes (host: blocking). */
ORRERY_NVSHMEM_HOSTDEVICE void nvshmem_putmem(void *dest, const void *source,
                                              size_t bytes, int pe);
ORRERY_NVSHMEM_HOSTDEVICE void nvshmem_getmem(void *dest, const void *source,
                                              size_t bytes, int pe);
ORRERY_NVSHMEM_HOSTDEVICE void nvshmem_putmem_nbi(void *dest,
                                                  const void *source,
                                                  size_t bytes, int pe);
ORRERY_NVSHMEM_HOSTDEVICE void nvshmem_getmem_nbi(void *dest,
                                                  const void *source,
                                                  size_t bytes, int pe);

/* Device-side calls of kernels, by element type: their bytes are counted by
 * the kernel analysis, by name (passes/lib/kernels/NvshmemCalls.cpp). */
#define ORRERY_NVSHMEM_RMA(T, NAME)                                            \
  ORRERY_NVSHMEM_DEVICE void nvshmem_##NAME##_p(T *dest, T value, int pe);     \
  ORRERY_NVSHMEM_DEVICE T nvshmem_##NAME##_g(const T *source, int pe);         \
  ORRERY_NVSHMEM_HOSTDEVICE void nvshmem_##NAME##_put(                         \
      T *dest, const T *source, size_t nelems, int pe);                        \
  ORRERY_NVSHMEM_HOSTDEVICE void nvshmem_##NAME##_get(                         \
      T *dest, const T *source, size_t nelems, int pe);                        \
  ORRERY_NVSHMEM_DEVICE void nvshmem_##NAME##_put_nbi(                         \
      T *dest, const T *source, size_t nelems, int pe);                        \
  ORRERY_NVSHMEM_DEVICE void nvshmem_##NAME##_get_nbi(                         \
      T *dest, const T *source, size_t nelems, int pe);                        \
  ORRERY_NVSHMEM_DEVICE void nvshmemx_##NAME##_put_block(                      \
      T *dest, const T *source, size_t nelems, int pe);                        \
  ORRERY_NVSHMEM_DEVICE void nvshmemx_##NAME##_put_warp(                       \
      T *dest, const T *source, size_t nelems, int pe);                        \
  ORRERY_NVSHMEM_DEVICE void nvshmemx_##NAME##_put_nbi_block(                  \
      T *dest, const T *source, size_t nelems, int pe);                        \
  ORRERY_NVSHMEM_DEVICE void nvshmemx_##NAME##_put_nbi_warp(                   \
      T *dest, const T *source, size_t nelems, int pe);                        \
  ORRERY_NVSHMEM_DEVICE void nvshmemx_##NAME##_get_block(                      \
      T *dest, const T *source, size_t nelems, int pe);                        \
  ORRERY_NVSHMEM_DEVICE void nvshmemx_##NAME##_get_nbi_block(                  \
      T *dest, const T *source, size_t nelems, int pe);                        \
  ORRERY_NVSHMEM_DEVICE T nvshmem_##NAME##_atomic_fetch_add(T *dest, T value,  \
                                                            int pe);           \
  ORRERY_NVSHMEM_DEVICE void nvshmem_##NAME##_atomic_add(T *dest, T value,     \
                                                         int pe);              \
  ORRERY_NVSHMEM_DEVICE void nvshmem_##NAME##_wait_until(T *ivar, int cmp,     \
                                                         T value);             \
  ORRERY_NVSHMEM_DEVICE void nvshmem_##NAME##_wait_until_all(                  \
      T *ivars, size_t nelems, const int *status, int cmp, T value);
/* The element types of the reductions (nvshmemx.h), and of the typed RMA
 * calls: those and three more. The library defines its calls from the
 * same lists. */
#define ORRERY_NVSHMEM_REDUCTION_TYPES(X)                                      \
  X(float, float)                                                              \
  X(double, double)                                                            \
  X(int, int)                                                                  \
  X(long, long)                                                                \
  X(long long, longlong)                                                       \
  X(int32_t, int32)                                                            \
  X(int64_t, int64)                                                            \
  X(uint32_t, uint32)                                                          \
  X(uint64_t, uint64)
#define ORRERY_NVSHMEM_RMA_TYPES(X)                                            \
  ORRERY_NVSHMEM_REDUCTION_TYPES(X)                                            \
  X(char, char)                                                                \
  X(short, short)                                                              \
  X(size_t, size)
ORRERY_NVSHMEM_RMA_TYPES(ORRERY_NVSHMEM_RMA)
#undef ORRERY_NVSHMEM_RMA

ORRERY_NVSHMEM_DEVICE void nvshmemx_putmem_block(void *dest, const void *source,
                                                 size_t bytes, int pe);
ORRERY_NVSHMEM_DEVICE void nvshmemx_putmem_nbi_block(void *dest,
                                                     const void *source,
                                                     size_t bytes, int pe);
ORRERY_NVSHMEM_DEVICE void nvshmemx_putmem_warp(void *dest, const void *source,
                                                size_t bytes, int pe);
ORRERY_NVSHMEM_DEVICE void nvshmemx_getmem_block(void *dest, const void *source,
                                                 size_t bytes, int pe);
ORRERY_NVSHMEM_DEVICE void nvshmem_putmem_signal_nbi(void *dest,
                                                     const void *source,
                                                     size_t bytes,
                                                     uint64_t *sig_addr,
                                                     uint64_t signal,
                                                     int sig_op, int pe);
ORRERY_NVSHMEM_DEVICE void nvshmemx_putmem_signal_nbi_block(
    void *dest, const void *source, size_t bytes, uint64_t *sig_addr,
    uint64_t signal, int sig_op, int pe);
ORRERY_NVSHMEM_DEVICE void nvshmemx_signal_op(uint64_t *sig_addr,
                                              uint64_t signal, int sig_op,
                                              int pe);
ORRERY_NVSHMEM_DEVICE uint64_t nvshmem_signal_fetch(uint64_t *sig_addr);
ORRERY_NVSHMEM_DEVICE uint64_t nvshmem_signal_wait_until(uint64_t *sig_addr,
                                                         int cmp,
                                                         uint64_t cmp_value);
ORRERY_NVSHMEM_DEVICE void nvshmemx_barrier_all_block(void);
ORRERY_NVSHMEM_DEVICE void nvshmemx_barrier_all_warp(void);
ORRERY_NVSHMEM_DEVICE void nvshmemx_sync_all_block(void);

#ifdef __cplusplus
}
#endif

#include "nvshmemx.h"

#endif
