/*===- nvshmemx.h - NVSHMEM's extensions for simulated builds ----*- C -*-===*
 *
 * NVSHMEM's CUDA-specific extensions (initialisation attributes, calls on
 * CUDA streams), declared for skeleton builds; see nvshmem.h. Written for
 * Orrery; not NVSHMEM's header.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ORRERY_SKELETON_NVSHMEMX_H
#define ORRERY_SKELETON_NVSHMEMX_H

#include "nvshmem.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NVSHMEMX_INIT_THREAD_PES 1
#define NVSHMEMX_INIT_WITH_MPI_COMM (1 << 1)
#define NVSHMEMX_INIT_WITH_SHMEM (1 << 2)
#define NVSHMEMX_INIT_WITH_UNIQUEID (1 << 3)

typedef struct {
  char content[128];
} nvshmemx_uniqueid_t;

typedef struct {
  int version;
  nvshmemx_uniqueid_t *uid;
  char content[96];
} nvshmemx_init_args_t;

typedef struct {
  size_t heap_size;
  int num_threads;
  int n_pes;
  int my_pe;
  void *mpi_comm; /* an MPI_Comm *, with NVSHMEMX_INIT_WITH_MPI_COMM */
  nvshmemx_init_args_t args;
} nvshmemx_init_attr_t;

#define NVSHMEMX_INIT_ATTR_INITIALIZER {0, 0, 0, 0, 0, {0, 0, {0}}}

int nvshmemx_init_attr(unsigned int flags, nvshmemx_init_attr_t *attributes);
int nvshmemx_hostlib_init_attr(unsigned int flags,
                               nvshmemx_init_attr_t *attributes);
int nvshmemx_init_status(void);
int nvshmemx_my_pe(nvshmem_team_t team);
int nvshmemx_n_pes(nvshmem_team_t team);

/* Synchronisation on a CUDA stream: work after it on the stream waits for
 * every PE's work before it. */
void nvshmemx_barrier_all_on_stream(cudaStream_t stream);
void nvshmemx_sync_all_on_stream(cudaStream_t stream);
void nvshmemx_team_sync_on_stream(nvshmem_team_t team, cudaStream_t stream);
void nvshmemx_quiet_on_stream(cudaStream_t stream);

/* Put and get on a CUDA stream. */
void nvshmemx_putmem_on_stream(void *dest, const void *source, size_t bytes,
                               int pe, cudaStream_t stream);
void nvshmemx_getmem_on_stream(void *dest, const void *source, size_t bytes,
                               int pe, cudaStream_t stream);
void nvshmemx_putmem_nbi_on_stream(void *dest, const void *source,
                                   size_t bytes, int pe, cudaStream_t stream);
void nvshmemx_getmem_nbi_on_stream(void *dest, const void *source,
                                   size_t bytes, int pe, cudaStream_t stream);

/* Typed put, get and collectives on a CUDA stream, and host-side
 * collectives (blocking). */
#define ORRERY_NVSHMEMX_TYPED(T, NAME)                                         \
  void nvshmemx_##NAME##_put_on_stream(T *dest, const T *source,              \
                                       size_t nelems, int pe,                  \
                                       cudaStream_t stream);                   \
  void nvshmemx_##NAME##_get_on_stream(T *dest, const T *source,              \
                                       size_t nelems, int pe,                  \
                                       cudaStream_t stream);                   \
  int nvshmemx_##NAME##_broadcast_on_stream(nvshmem_team_t team, T *dest,      \
                                            const T *source, size_t nelems,    \
                                            int PE_root, cudaStream_t stream); \
  int nvshmemx_##NAME##_fcollect_on_stream(nvshmem_team_t team, T *dest,       \
                                           const T *source, size_t nelems,     \
                                           cudaStream_t stream);               \
  int nvshmem_##NAME##_broadcast(nvshmem_team_t team, T *dest,                 \
                                 const T *source, size_t nelems, int PE_root); \
  int nvshmem_##NAME##_fcollect(nvshmem_team_t team, T *dest, const T *source, \
                                size_t nelems);
#define ORRERY_NVSHMEMX_REDUCE(T, NAME, OP)                                    \
  int nvshmemx_##NAME##_##OP##_reduce_on_stream(                               \
      nvshmem_team_t team, T *dest, const T *source, size_t nreduce,           \
      cudaStream_t stream);                                                    \
  int nvshmem_##NAME##_##OP##_reduce(nvshmem_team_t team, T *dest,             \
                                     const T *source, size_t nreduce);
/* The reduction operators, each a call per element type. */
#define ORRERY_NVSHMEM_REDUCE_OPS(REDUCE, T, NAME)                             \
  REDUCE(T, NAME, sum)                                                         \
  REDUCE(T, NAME, prod)                                                        \
  REDUCE(T, NAME, min)                                                         \
  REDUCE(T, NAME, max)
#define ORRERY_NVSHMEMX_REDUCTIONS(T, NAME)                                    \
  ORRERY_NVSHMEMX_TYPED(T, NAME)                                               \
  ORRERY_NVSHMEM_REDUCE_OPS(ORRERY_NVSHMEMX_REDUCE, T, NAME)
/* The typed collectives: every reduction type, and char. */
#define ORRERY_NVSHMEM_COLLECT_ONLY_TYPES(X) X(char, char)
ORRERY_NVSHMEM_REDUCTION_TYPES(ORRERY_NVSHMEMX_REDUCTIONS)
ORRERY_NVSHMEM_COLLECT_ONLY_TYPES(ORRERY_NVSHMEMX_TYPED)
#undef ORRERY_NVSHMEMX_REDUCTIONS
#undef ORRERY_NVSHMEMX_REDUCE
#undef ORRERY_NVSHMEMX_TYPED

#ifdef __cplusplus
}
#endif

#endif
