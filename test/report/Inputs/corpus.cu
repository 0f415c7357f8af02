// The kernel corpus of docs/kernel-cost.md: each kernel's expected counts are
// derived by hand in test/report/corpus.test.
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void daxpy(int n, double a, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  y[i] += a * x[i];
}

__global__ void stream_copy(const double *a, double *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i];
}

__global__ void stream_scale(double *b, const double *c, double q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = q * c[i];
}

__global__ void stream_add(const double *a, const double *b, double *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

__global__ void stream_triad(double *a, const double *b, const double *c,
                             double q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = b[i] + q * c[i];
}

__global__ void stencil5(const double *in, double *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (x < nx - 1 && y < ny - 1)
    out[y * nx + x] = 0.25 * (in[y * nx + x - 1] + in[y * nx + x + 1] +
                              in[(y - 1) * nx + x] + in[(y + 1) * nx + x]);
}

__global__ void stencil7(const float *in, float *out, int nx, int ny, int nz,
                         float c0, float c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
  int z = blockIdx.z * blockDim.z + threadIdx.z + 1;
  if (x < nx - 1 && y < ny - 1 && z < nz - 1) {
    int i = (z * ny + y) * nx + x;
    out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - nx] +
                                in[i + nx] + in[i - nx * ny] + in[i + nx * ny]);
  }
}

__global__ void jacobi_step(const double *a, double *a_new, double *norm,
                            int nx, int ny) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int iy = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (ix < nx - 1 && iy < ny - 1) {
    double v = 0.25 * (a[iy * nx + ix + 1] + a[iy * nx + ix - 1] +
                       a[(iy + 1) * nx + ix] + a[(iy - 1) * nx + ix]);
    a_new[iy * nx + ix] = v;
    double d = v - a[iy * nx + ix];
    atomicAdd(norm, d * d);
  }
}

__global__ void strided_copy(const float *in, float *out, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i * stride];
}

__global__ void gather(const double *src, const int *idx, double *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = src[idx[i]];
}

__global__ void spmv_csr(int rows, const int *row_ptr, const int *col,
                         const double *val, const double *x, double *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    double sum = 0;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
      sum += val[k] * x[col[k]];
    y[r] = sum;
  }
}

__global__ void block_reduce(const float *in, float *out, int n) {
  __shared__ float buf[256];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (tid < s)
      buf[tid] += buf[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    atomicAdd(out, buf[0]);
}

__global__ void histogram(const int *data, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[data[i]], 1);
}

#define TILE 16
__global__ void gemm_tiled(const float *A, const float *B, float *C, int N) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0;
  for (int t = 0; t < N / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * N + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

__global__ void transcendental(const float *x, float *y, const double *u,
                               double *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = expf(x[i]) * sinf(x[i]) + sqrtf(x[i]);
    v[i] = exp(u[i]) + log(u[i]) / u[i];
  }
}

__global__ void grid_stride_scale(float *x, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    x[i] = a * x[i];
}

template <typename T> __global__ void scale_t(T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = a * x[i] + a;
}

__device__ float square(float v) { return v * v; }
__device__ float norm2(float a, float b) { return sqrtf(square(a) + square(b)); }

__global__ void with_helpers(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = norm2(a[i], b[i]);
}

__global__ void vec4_copy(const float4 *in, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

__global__ void annotated(const double *x, double *y, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double v = x[i];
#pragma orrery loop_count(iters)
    while (v > 1e-3)
      v = v * 0.5;
#pragma orrery branch_prob(0.25)
    if (v < 0)
      v = -v;
    y[i] = v;
  }
}

void launch_all(float *f, double *d, int *ix, float4 *f4, int n) {
  scale_t<float><<<n / 256, 256>>>(f, 2.0f, n);
  scale_t<double><<<n / 256, 256>>>(d, 2.0, n);
}

__global__ void window_sum(const float *x, float *y, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0;
    for (int j = 0; j < min(k, 8); ++j)
      s += x[i + j];
    y[i] = s;
  }
}
