// A test backend of the hook ABI: runs no CUDA at all (launches reach the
// stubs below) and prints the cost hint each launch passes.
#include "orrery/hooks.h"

#include <cstdio>

extern "C" {
void orrery_launch_hint(const orrery_site *S, orrery_kernel_counts C) {
  std::printf("hint %s: launched %.0f active %.0f fp32_fma %g fp64_fma %g "
              "fp64_add %g load_bytes %g store_bytes %g load_footprint %g "
              "atomics %g confidence %d measured %g\n",
              S->callee, C.threads_launched, C.active_threads, C.fp32_fma,
              C.fp64_fma, C.fp64_add, C.load_bytes, C.store_bytes,
              C.load_footprint, C.atomics, C.confidence, C.measured_seconds);
}
void orrery_register_kernels(const orrery_kernel_entry *, unsigned) {}
double orrery_buffer_bytes(const void *) { return 1e300; }
void orrery_launch_begin(const orrery_site *, orrery_dim3, orrery_dim3,
                         unsigned long long, const void *) {}
void orrery_cuda_begin(const orrery_site *, orrery_buf, orrery_buf, long long,
                       const void *) {}
void orrery_mpi_begin(const orrery_site *, orrery_buf, orrery_buf, int,
                      orrery_intptr_t, int, int, int, const void *) {}
void orrery_ramc_begin(const orrery_site *, orrery_buf, orrery_buf, int,
                       const void *, unsigned long long) {}
int orrery_end(const orrery_site *, int R) { return R; }
const void *orrery_end_ptr(const orrery_site *, const void *R) { return R; }
void orrery_end_void(const orrery_site *) {}

// What a host-side compile of launches references: launches do nothing.
struct dim3;
int __cudaPushCallConfiguration(...) { return 0; }
int __cudaPopCallConfiguration(void *, void *, void *, void *) { return 0; }
int cudaLaunchKernel(const void *, ...) { return 0; }
}
