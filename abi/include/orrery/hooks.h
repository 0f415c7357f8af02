/*===- orrery/hooks.h - The Orrery hook ABI --------------------------------===*
 *
 * The one contract between code written by orrery-instrument and liborrery.
 * Every rewritten call site becomes an expression of the form
 *
 *   orrery_result<T>((orrery_<family>_begin(&orrery_site_N, <annotation>),
 *                     orrery_end(&orrery_site_N, (int)(<original call>))))
 *
 * in C++ (in C the same without orrery_result<T>),
 *
 * so the original call stays intact and always runs, between its begin and
 * end hooks: natively, or against skeleton mode's own CUDA runtime, SMPI and
 * libramc-sim, which charge simulated time. Kernel launches, which have no
 * value, use
 *
 *   (orrery_launch_begin(&orrery_site_N, ...), (void)(<launch>),
 *    orrery_end_void(&orrery_site_N))
 *
 * The header is C (C99) and C++ compatible and includes only the compiler's
 * <stddef.h> and the two lists next to it (kernel_counts.def,
 * kernel_confidence.def): it comes first in an instrumented file, before the
 * file's own feature macros (_GNU_SOURCE, or a config.h defining them), so
 * it must not include a C library header, which would fix the library's
 * features without them. Instrumented C files must stay C, and some
 *applications declare locals named like errno. It must also survive smpicxx's
 *force-included smpi_helpers.h, so it uses no identifier that header redefines.
 *
 * Versioning: ORRERY_HOOK_ABI_VERSION changes whenever a declaration below
 * changes meaning. Every site records the version it was generated against;
 * liborrery refuses sites from another version.  See docs/hook-abi.md.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ORRERY_HOOKS_H
#define ORRERY_HOOKS_H

#include <stddef.h>

/* intptr_t without <stdint.h> (see above); the same type. */
typedef __INTPTR_TYPE__ orrery_intptr_t;

#define ORRERY_HOOK_ABI_VERSION 10

#ifdef __cplusplus
extern "C" {
#endif

/* What a site is. */
enum {
  ORRERY_KIND_CUDA = 1,   /* CUDA runtime API call */
  ORRERY_KIND_LAUNCH = 2, /* kernel launch (<<<>>> or cudaLaunchKernel) */
  ORRERY_KIND_MPI = 3,    /* MPI call */
  ORRERY_KIND_RAMC = 4    /* RAMC call */
};

/* One per rewritten call site; emitted as a static constant at the top of the
 * instrumented file. The runtime may key per-site state by its address. */
typedef struct orrery_site {
  unsigned abi_version; /* ORRERY_HOOK_ABI_VERSION at generation time */
  unsigned id;          /* unique within one orrery-instrument run */
  const char *file;     /* source file as given to orrery-instrument */
  unsigned line;        /* 1-based line of the call in that file */
  unsigned column;      /* 1-based column of the call */
  int kind;             /* ORRERY_KIND_* */
  const char *api;      /* "cudaMemcpyAsync", "MPI_Allreduce", "<<<>>>" */
  const char *callee;   /* launches: the kernel as written; otherwise NULL */
} orrery_site;

/* How a buffer's size is given. */
enum {
  ORRERY_BUF_NONE = 0,   /* no buffer */
  ORRERY_BUF_BYTES = 1,  /* count is a byte count */
  ORRERY_BUF_MPI = 2,    /* count elements of MPI datatype `datatype` */
  ORRERY_BUF_MPIV = 3,   /* counts[r] elements of `datatype` per rank r */
  ORRERY_BUF_HANDLES = 4 /* count handles (MPI requests) at ptr */
};

/* A buffer argument of a call: where it is and how large. Whether the memory
 * is host, pinned, managed or device memory (and of which GPU) is the
 * runtime's to decide from its allocation registry. */
typedef struct orrery_buf {
  const void *ptr;
  int form;                 /* ORRERY_BUF_* */
  long long count;          /* bytes (BYTES) or elements (MPI) */
  orrery_intptr_t datatype; /* MPI datatype handle, (orrery_intptr_t) */
  const int *counts;        /* per-rank element counts (MPIV) */
} orrery_buf;

/* Launch geometry. */
typedef struct orrery_dim3 {
  unsigned x, y, z;
} orrery_dim3;

/* The address of an out-parameter (cudaMalloc(&p, n), cudaStreamCreate(&s))
 * as a buffer annotation gets it: through a non-const parameter, so that
 * clang's -Wuninitialized-const-pointer does not take the annotation for a
 * read of the still uninitialised variable. */
static inline const void *orrery_out_ptr(void *ptr) { return ptr; }

static inline orrery_buf orrery_buf_none(void) {
  orrery_buf b = {0, ORRERY_BUF_NONE, 0, 0, 0};
  return b;
}

static inline orrery_buf orrery_buf_bytes(const void *ptr, long long bytes) {
  orrery_buf b = {ptr, ORRERY_BUF_BYTES, bytes, 0, 0};
  return b;
}

static inline orrery_buf orrery_buf_mpi(const void *ptr, long long count,
                                        orrery_intptr_t datatype) {
  orrery_buf b = {ptr, ORRERY_BUF_MPI, count, datatype, 0};
  return b;
}

static inline orrery_buf orrery_buf_mpiv(const void *ptr, const int *counts,
                                         orrery_intptr_t datatype) {
  orrery_buf b = {ptr, ORRERY_BUF_MPIV, 0, datatype, counts};
  return b;
}

static inline orrery_buf orrery_buf_handles(const void *ptr, long long count) {
  orrery_buf b = {ptr, ORRERY_BUF_HANDLES, count, 0, 0};
  return b;
}

/* How much of a kernel hint rests on assumptions (docs/kernel-cost.md):
 * ORRERY_CONFIDENCE_EXACT, _SYMBOLIC, _DEFAULTED, _UNKNOWN. */
enum {
#define ORRERY_CONFIDENCE(Upper, Camel, Name, Value, Meaning)                  \
  ORRERY_CONFIDENCE_##Upper = Value,
#include "kernel_confidence.def"
#undef ORRERY_CONFIDENCE
  ORRERY_CONFIDENCE_END_
};

/* A kernel cost hint evaluated for one launch, as generated code computes it
 * from the launch geometry and the kernel's arguments: one double per line of
 * kernel_counts.def, in its order, then the confidence. */
typedef struct orrery_kernel_counts {
#define ORRERY_KERNEL_COUNT(name, missing) double name;
#include "kernel_counts.def"
#undef ORRERY_KERNEL_COUNT
  int confidence; /* ORRERY_CONFIDENCE_* */
} orrery_kernel_counts;

/* Called just before orrery_launch_begin for launches whose kernel has a
 * generated hint. */
void orrery_launch_hint(const orrery_site *site, orrery_kernel_counts counts);

/* The kernel registry: what CUDA's __cudaRegisterFunction does for device
 * code, done for hints. Every instrumented translation unit registers, from a
 * static constructor, one entry per kernel (per template instantiation) it
 * defines: the mangled name of the kernel's host stub (the function
 * `(const void *)kernel` points to), a readable name, where it is defined and
 * a function that evaluates its hint from a launch's geometry and its
 * argument array (the `void **args` of cudaLaunchKernel). A launch whose
 * kernel no site names (a function pointer, cudaLaunchKernel, a graph node, a
 * launch in a macro or another file) is resolved by the stub's address at run
 * time. */
typedef orrery_kernel_counts (*orrery_kernel_thunk)(orrery_dim3 grid,
                                                    orrery_dim3 block,
                                                    unsigned long long dynSmem,
                                                    void **args);
typedef struct orrery_kernel_entry {
  const char *stub;     /* mangled symbol of the host stub */
  const char *name;     /* the kernel, with its template arguments */
  const char *location; /* file:line:col of the definition */
  orrery_kernel_thunk counts;
  /* the stub itself where the generated code can name it (a kernel that is
   * no template and not overloaded), else NULL: found by symbol */
  const void *address;
  /* bit i set: parameter i (of the first 64) is a pointer; the runtime reads
   * those arguments to know which buffers a launch touches (what the L2
   * holds between kernels) */
  unsigned long long pointers;
  /* the pointer parameters, "INDEX:NAME:TYPE" separated by spaces, TYPE the
   * element type as orrery_read_hint names it: what a value a kernel leaves
   * behind (FILE:LINE@NAME) is written as */
  const char *pointees;
} orrery_kernel_entry;
void orrery_register_kernels(const orrery_kernel_entry *entries,
                             unsigned count);

/* Bytes from `p` to the end of the device allocation it points into, as the
 * runtime knows its allocations; HUGE_VAL where it knows none (a host
 * pointer, a native run). Generated hints bound a kernel's footprint with it:
 * a launch reads no more distinct bytes of a buffer than the buffer holds. */
double orrery_buffer_bytes(const void *p);

/* Helpers used by generated hint functions. */
static inline double orrery_min(double a, double b) { return a < b ? a : b; }
static inline double orrery_max(double a, double b) { return a > b ? a : b; }
static inline double orrery_ceil_div(double a, double b) {
  double q;
  if (b == 0)
    return 0;
  q = (double)(long long)(a / b);
  return q < a / b ? q + 1 : q;
}
static inline double orrery_floor_div(double a, double b) {
  double q;
  if (b == 0)
    return 0;
  q = (double)(long long)(a / b);
  return q > a / b ? q - 1 : q;
}
/* The trip count of a loop that halves its variable from a down to 1 (or
 * doubles it from 1 up to a): floor(log2(a)) + 1 for a >= 1, and 1 below. */
static inline double orrery_halving_trips(double a) {
  double n = 0;
  while (a >= 2) {
    a /= 2;
    n += 1;
  }
  return n + 1;
}
/* The L1 wavefronts (clocks of its data stage) of one warp-wide load: 32
 * lanes `stride` elements of `elem` bytes apart, from an aligned start. The
 * data stage reads one 4-byte word per bank per clock from 32 banks, so a
 * load takes as many wavefronts as its busiest bank has distinct words (a
 * power-of-two stride conflicts, an odd one does not); the tag stage
 * resolves about four 128-byte lines per clock after the first, so a load
 * spread over many lines takes (lines + 3) / 4 (gpu-benches' gpu-strides,
 * H200: l1tex wavefronts per request). The larger of the two; wider
 * elements than 4 bytes take at least elem / 4 wavefronts. A negative
 * stride touches what its mirror image does. */
static inline double orrery_l1_wavefronts(double stride, double elem) {
  int conflicts[32] = {0};
  long long last_word = -1, last_line = -1;
  double lines = 0, busiest = 1, tags;
  int lane;
  if (stride < 0)
    stride = -stride;
  if (elem < 1)
    elem = 1;
  if (elem > 128)
    elem = 128;
  if (stride > 1e6)
    stride = 1e6;
  for (lane = 0; lane < 32; ++lane) {
    long long first = (long long)(stride * lane) * (long long)elem;
    long long word = first / 4;
    /* Lanes reading one word share it (addresses only grow with the lane). */
    if (word <= last_word)
      word = last_word + 1;
    for (; word <= (first + (long long)elem - 1) / 4; ++word) {
      last_word = word;
      if (++conflicts[word % 32] > busiest)
        busiest = conflicts[word % 32];
      if (word / 32 != last_line) {
        last_line = word / 32;
        lines += 1;
      }
    }
  }
  /* 8- and 16-byte loads pass in half and quarter warps, whatever their
   * addresses (a wavefront carries 128 bytes). */
  if (elem / 4 > busiest)
    busiest = elem / 4;
  tags = (lines + 3) / 4;
  return busiest > tags ? busiest : tags;
}

/* Begin hooks: called just before the original call.
 *
 * CUDA runtime calls: `dst` and `src` are the buffers written and read (a
 * cudaMalloc's dst is the address of the pointer it fills), `aux` the
 * cudaMemcpyKind, flags or value the API takes (0 if none), `stream` the
 * stream handle or event the call is ordered on (0 for the default stream). */
void orrery_cuda_begin(const orrery_site *site, orrery_buf dst, orrery_buf src,
                       long long aux, const void *stream);

/* Device reads: announced just before orrery_cuda_begin for a call that may
 * copy device memory to the host (cudaMemcpy*, cudaMemcpyFromSymbol).
 * `value_type` is the destination's element type (f32, f64, i8..i64,
 * u8..u64, bytes); `device_value` the text of a `#pragma orrery
 * device_value(V)` on the line before the call, or NULL. A simulation,
 * which holds no device data, writes the value the user set for this site
 * there (docs/simulate.md); a native run with ORRERY_RECORD_READS set
 * records what the call wrote there. */
void orrery_read_hint(const orrery_site *site, const char *value_type,
                      const char *device_value);

/* What a kernel leaves for the host: announced just before
 * orrery_launch_begin at a `<<<>>>` launch with a `#pragma orrery
 * device_value(ARG=VALUE)` on the line before it. `arg` names the kernel's
 * pointer parameter (a name or an index from 0), `value` is VALUE (a value
 * or a schedule). A simulation writes it where that argument points
 * (docs/simulate.md, "What kernels leave for the host"). */
void orrery_launch_value(const orrery_site *site, const char *arg,
                         const char *value);

/* Kernel launches: geometry, dynamic shared memory bytes and stream. */
void orrery_launch_begin(const orrery_site *site, orrery_dim3 grid,
                         orrery_dim3 block, unsigned long long shmem,
                         const void *stream);

/* MPI calls: the send-side and receive-side buffers, the peer or root rank
 * (-1 if none) and the communicator or window handle, converted with
 * (orrery_intptr_t, intptr_t's type) so the ABI does not depend on one MPI's
 * handle types; for point-to-point calls what MPI matches messages by: the tag
 * of the message sent, and the source and tag of the message received (-1 where
 * the call has none or the argument was not annotated; MPI_Sendrecv has all
 * three); for nonblocking receives, the address of the request (0 otherwise).
 */
void orrery_mpi_begin(const orrery_site *site, orrery_buf send, orrery_buf recv,
                      int peer, orrery_intptr_t comm, int send_tag, int source,
                      int recv_tag, const void *request);

/* RAMC calls: the local source of a put and the local destination of a get
 * (or the memory a new window exposes), the peer rank (-1 if none), the
 * context (context API) or window structure (RAMC 0.5 API) the call acts on,
 * and the target or initiator handle (context API; 0 otherwise). */
void orrery_ramc_begin(const orrery_site *site, orrery_buf src, orrery_buf dst,
                       int peer, const void *object, unsigned long long handle);

/* End hooks: see the original call's result (status codes -- cudaError_t,
 * MPI's and RAMC's int -- as int, pointers as const void *) and return it,
 * possibly replaced. */
int orrery_end(const orrery_site *site, int result);
const void *orrery_end_ptr(const orrery_site *site, const void *result);
void orrery_end_void(const orrery_site *site);

#ifdef __cplusplus
} /* extern "C" */

/* Converts any dim3-like value (dim3, uint3, orrery_dim3) to orrery_dim3.
 * Generated code passes `orrery_dim3_of(dim3(<geometry>))`. */
/* Gives a hooked call's result back its type: generated C++ code writes
 * `orrery_result<cudaError_t>(...)`. (C needs nothing: int and const void *
 * convert implicitly there.) A function rather than a cast, so an unused
 * result draws no warning. */
template <class T> static inline T orrery_result(int value) {
  return static_cast<T>(value);
}
template <class T> static inline T orrery_result(const void *value) {
  return static_cast<T>(value);
}

/* Precision of a template parameter, for hints of template kernels: one
 * generated function template splits counts by the instantiation's type,
 * e.g. `orrery_precision<T>::fp32 * n`. (A class, not variable templates:
 * explicit specializations of those are not inline before C++17.) */
template <class T> struct orrery_precision {
  static const int fp32 = 0, fp64 = 0, integer = 1;
};
template <> struct orrery_precision<float> {
  static const int fp32 = 1, fp64 = 0, integer = 0;
};
template <> struct orrery_precision<double> {
  static const int fp32 = 0, fp64 = 1, integer = 0;
};

template <class Dim3> static inline orrery_dim3 orrery_dim3_of(const Dim3 &d) {
  orrery_dim3 r = {static_cast<unsigned>(d.x), static_cast<unsigned>(d.y),
                   static_cast<unsigned>(d.z)};
  return r;
}
#endif

#endif /* ORRERY_HOOKS_H */
