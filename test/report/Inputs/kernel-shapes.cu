// Kernels of shapes real codes use (test/report/kernel-shapes.test).
#include <cuda_runtime.h>

// par_for over a functor and over a lambda, and the loop written by hand.
template <class F> __global__ void par_for(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}
struct Axpy {
  double a;
  const double *x;
  double *y;
  __device__ void operator()(int i) const { y[i] = a * x[i] + y[i]; }
};
__global__ void axpy_hand(int n, double a, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// A tiled transpose that reuses its index variables.
#define TILE 32
__global__ void transpose(float *out, const float *in, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w)
    out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

// A grid-stride sum, a shared-memory tree and one partial per block.
__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  float sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    sum += in[i];
  s[tid] = sum;
  __syncthreads();
  for (int st = blockDim.x / 2; st > 0; st >>= 1) {
    if (tid < st)
      s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// A norm: grid-stride squares, a warp-shuffle tree, one atomic per warp.
__global__ void norm2(const double *in, double *out, int n) {
  double sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    sum += in[i] * in[i];
  for (int off = 16; off > 0; off /= 2)
    sum += __shfl_down_sync(0xffffffff, sum, off);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(out, sum);
}

// A block tree whose combining function is a lambda passed as a function
// pointer through a recursive template (CloverLeaf's field summary).
template <typename T, int offset> struct tree {
  __device__ static void run(T *array, T *out, T (*func)(T, T)) {
    if (offset > 16)
      __syncthreads();
    if (threadIdx.x < offset) {
      array[threadIdx.x] = func(array[threadIdx.x], array[threadIdx.x + offset]);
      tree<T, offset / 2>::run(array, out, func);
    }
  }
};
template <typename T> struct tree<T, 0> {
  __device__ static void run(T *array, T *out, T (*)(T, T)) {
    out[blockIdx.x] = array[0];
  }
};
template <class F> __global__ void par_reduce(F f) {
  f(threadIdx.x + blockIdx.x * blockDim.x);
}

void run(int n, double a, double *x, double *y, float *o, float *i2) {
  par_for<<<(n + 255) / 256, 256>>>(n, Axpy{a, x, y});
  par_for<<<(n + 255) / 256, 256>>>(
      n, [=] __device__(int i) { y[i] = a * x[i] + y[i]; });
  axpy_hand<<<(n + 255) / 256, 256>>>(n, a, x, y);
  transpose<<<dim3(64, 64), dim3(32, 32)>>>(o, i2, 2048, 2048);
  block_sum<<<4096, 256>>>(i2, o, n);
  norm2<<<1024, 256>>>(x, y, n);
  par_reduce<<<256, 256>>>([=] __device__(int gid) {
    __shared__ double part[256];
    part[threadIdx.x] = 0;
    for (int v = gid; v < n; v += blockDim.x * gridDim.x)
      part[threadIdx.x] += x[v];
    tree<double, 128>::run(part, y, [](auto l, auto r) { return l + r; });
  });
}
