// Kernel launches in every form real codes use; one hook per source site.
// RUN: orrery-instrument --quiet %s -o %t.cu -- %mock-cuda-flags
// RUN: sed -e '/^\/\/ /d' %t.cu | FileCheck %s
// RUN: sed -e '/^\/\/ /d' %t.cu | FileCheck %s --check-prefix=HINT
// RUN: %clangxx -fsyntax-only %mock-cuda-flags -I %hooks-include %t.cu
#include <cuda_runtime.h>

__global__ void k1(float *x) {}
template <typename T, int N> __global__ void kt(T *x) {}

template <typename T> void launchAll(T *x, cudaStream_t s) {
  kt<T, 4><<<1, 32, 0, s>>>(x);
}

void run(float *x, double *y, cudaStream_t *p, cudaStream_t s[2], int n) {
  dim3 grid(n / 256 + 1), block(256);
  k1<<<grid, block>>>(x);
  k1<<<dim3(4, 2), dim3(16, 16, 1), 1024>>>(x);
  k1<<<n, 128, 0, *p>>>(x);
  k1<<<grid, {32, 8, 1}, 0, s[1]>>>(x);
  k1<<<{2, 2}, 64>>>(x);
  kt<double, 8><<<grid, block, 4 * sizeof(double), s[0]>>>(y);
  launchAll(x, s[0]);
  launchAll(y, s[0]);
  launchAll((int *)x, s[1]);
}

// CHECK: static const orrery_site orrery_site_1 = {10u, 1u, "{{.*}}launch-forms.cu", 12u, 3u, ORRERY_KIND_LAUNCH, "<<<>>>", "kt<T, 4>"};
// CHECK: static const orrery_site orrery_site_2 = {10u, 2u, "{{.*}}launch-forms.cu", 17u, 3u, ORRERY_KIND_LAUNCH, "<<<>>>", "k1"};
// CHECK: static const orrery_site orrery_site_7 = {{.*}} 22u, 3u, ORRERY_KIND_LAUNCH, "<<<>>>", "kt<double, 8>"};
// CHECK-NOT: orrery_site_8 =
// CHECK: #line 1 "{{.*}}launch-forms.cu"
// CHECK: orrery_launch_begin(&orrery_site_1, orrery_dim3_of(dim3(1)), orrery_dim3_of(dim3(32)), (unsigned long long)(0), (const void *)(s)), (void)(kt<T, 4><<<1, 32, 0, s>>>(x)), orrery_end_void(&orrery_site_1));
// CHECK: orrery_launch_begin(&orrery_site_2, orrery_dim3_of(dim3(grid)), orrery_dim3_of(dim3(block)), (unsigned long long)(0), (const void *)(0)), (void)(k1<<<grid, block>>>(x)), orrery_end_void(&orrery_site_2));
// CHECK: orrery_dim3_of(dim3(dim3(4, 2))), orrery_dim3_of(dim3(dim3(16, 16, 1))), (unsigned long long)(1024), (const void *)(0))
// CHECK: orrery_dim3_of(dim3(n)), orrery_dim3_of(dim3(128)), (unsigned long long)(0), (const void *)(*p))
// CHECK: orrery_dim3_of(dim3(grid)), orrery_dim3_of(dim3(dim3{32, 8, 1})), (unsigned long long)(0), (const void *)(s[1])), (void)(k1<<<grid, dim3{32, 8, 1}, 0, s[1]>>>(x))
// CHECK: orrery_dim3_of(dim3(dim3{2, 2})), orrery_dim3_of(dim3(64))
// CHECK: (unsigned long long)(4 * sizeof(double)), (const void *)(s[0])), (void)(kt<double, 8><<<grid, block, 4 * sizeof(double), s[0]>>>(y))
// Launches of kernels defined earlier in the file pass the kernel's cost hint:
// HINT: (orrery_launch_hint(&orrery_site_7, orrery_hint_kt<double, 8>(orrery_dim3_of(dim3(grid)), orrery_dim3_of(dim3(block)), (unsigned long long)(4 * sizeof(double)), (y))), orrery_launch_begin(&orrery_site_7,
