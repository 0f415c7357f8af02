// The second kernel corpus: the shapes real kernels use (interior stencils,
// halo packing, grid- and block-stride loops, reductions, CSR, transpose,
// histograms, while loops). corpus2.test holds the hand derivations.
#include <cuda_runtime.h>

// 1. 2-D interior: both bounds on both coordinates.
__global__ void interior2d(const float *in, float *out, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= 1 && i < nx - 1 && j >= 1 && j < ny - 1)
    out[j * nx + i] = 0.25f * (in[j * nx + i - 1] + in[j * nx + i + 1] +
                               in[(j - 1) * nx + i] + in[(j + 1) * nx + i]);
}

// 2. 3-D interior: early return on the complement.
__global__ void interior3d(const double *in, double *out, int nx, int ny,
                           int nz, double c0, double c1) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i < 1 || i >= nx - 1 || j < 1 || j >= ny - 1 || k < 1 || k >= nz - 1)
    return;
  int c = (k * ny + j) * nx + i;
  out[c] = c0 * in[c] + c1 * (in[c - 1] + in[c + 1] + in[c - nx] +
                              in[c + nx] + in[c - nx * ny] + in[c + nx * ny]);
}

// 3. An index with a stride and an offset.
__global__ void odd_elements(const float *x, float *y, float a, int n) {
  int ix = 2 * (blockIdx.x * blockDim.x + threadIdx.x) + 1;
  if (ix < n)
    y[ix] = a * x[ix];
}

// 4. `!=` on both boundaries (an early return on ==), then the upper bound.
__global__ void laplace1d(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0 || i == n - 1)
    return;
  if (!(i < n))
    return;
  y[i] = x[i - 1] - 2.0f * x[i] + x[i + 1];
}

// 5. Declare-then-assign, bounds through local variables and a bool.
__global__ void halo_interior(const double *u, double *v, int n, int halo) {
  int i;
  i = blockIdx.x * blockDim.x + threadIdx.x;
  int lo = halo, hi = n - halo;
  const bool inside = i >= lo && i < hi;
  if (inside)
    v[i] = 2.0 * u[i];
}

// 6. A branch on threadIdx after work: the fraction of each block that
// takes it.
__global__ void first_warp(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i] * x[i];
  if (threadIdx.x < 32)
    out[blockIdx.x * 32 + threadIdx.x] = v;
}

// 7. Grid-stride reduction with one atomic per thread.
__global__ void gs_sum(const float *x, float *sum, int n) {
  float s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    s += x[i];
  atomicAdd(sum, s);
}

// 8. Shared-memory tree reduction with a block-stride load loop.
__global__ void row_sums(const float *a, float *out, int m) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  float acc = 0;
  for (int k = threadIdx.x; k < m; k += blockDim.x)
    acc += a[blockIdx.x * m + k];
  sdata[tid] = acc;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// 9. The unrolled-warp reduction: halving to 32, then one warp.
__global__ void reduce_warp(const float *in, float *out, int n) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile float *w = sdata;
    w[tid] += w[tid + 32];
    w[tid] += w[tid + 16];
    w[tid] += w[tid + 8];
    w[tid] += w[tid + 4];
    w[tid] += w[tid + 2];
    w[tid] += w[tid + 1];
  }
  if (tid == 0)
    atomicAdd(out, sdata[0]);
}

// 10. CSR SpMV, one thread per row, bounds through locals.
__global__ void spmv_scalar(int rows, const int *row_ptr, const int *cols,
                            const float *vals, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    int start = row_ptr[row];
    int end = row_ptr[row + 1];
    float dot = 0;
    for (int jj = start; jj < end; jj++)
      dot += vals[jj] * x[cols[jj]];
    y[row] = dot;
  }
}

// 11. Transpose through shared memory (32x32 tiles, 32x8 threads).
#define TILE_DIM 32
#define BLOCK_ROWS 8
__global__ void transpose(const float *in, float *out, int width) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  int tx = blockIdx.y * TILE_DIM + threadIdx.x;
  int ty = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[(ty + j) * width + tx] = tile[threadIdx.x][threadIdx.y + j];
}

// 12. Histogram: shared bins, a grid-stride loop, one global atomic per bin.
__global__ void histo256(const unsigned char *data, int *bins, int n) {
  __shared__ int h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&h[data[i]], 1);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

// 13. Halo packing: the face is a template argument (LULESH's pack
// kernels); each instantiation counts its own case only.
template <int Face>
__global__ void pack_face(const double *f, double *buf, int nx, int ny,
                          int nz) {
  int a = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y * blockDim.y + threadIdx.y;
  switch (Face) {
  case 0:
    if (a < ny && b < nz)
      buf[b * ny + a] = f[(b * ny + a) * nx];
    break;
  case 1:
    if (a < nx && b < nz)
      buf[b * nx + a] = f[b * ny * nx + a];
    break;
  default:
    if (a < nx && b < ny)
      buf[b * nx + a] = f[b * nx + a] + f[(nz - 1) * nx * ny + b * nx + a];
    break;
  }
}

// 14. Halo packing with the face as a kernel argument.
__global__ void pack_any(const double *f, double *buf, int n, int face) {
  int a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n)
    return;
  switch (face) {
  case 0:
    buf[a] = f[a];
    break;
  case 1:
    buf[a] = 2.0 * f[a];
    break;
  }
}

// 15. while and do loops with affine conditions, and one that is not.
__global__ void iterate(float *x, int n, int iters, float a, float b,
                        float tol) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  int it = 0;
  do {
    v = v * a + b;
    ++it;
  } while (it < iters);
  int k = 0;
  while (k < 2 * iters) {
    v = v * a;
    k += 2;
  }
  while (v > tol)
    v = v * 0.5f;
  x[i] = v;
}

// 16. 2-D grid-stride loops.
__global__ void scale2d(const float *in, float *out, int nx, int ny) {
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < ny;
       y += blockDim.y * gridDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < nx;
         x += blockDim.x * gridDim.x)
      out[y * nx + x] = 2.0f * in[y * nx + x];
}

// 17. An interior guard inside a time loop (not at the top).
__global__ void heat_steps(float *u, int n, int steps, float r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int t = 0; t < steps; ++t) {
    if (i > 0 && i <= n - 2)
      u[i] = u[i] + r * (u[i - 1] - 2.0f * u[i] + u[i + 1]);
    __syncthreads();
  }
}

void launch_packs(const double *f, double *buf, int nx, int ny, int nz) {
  pack_face<0><<<dim3(4, 4), dim3(32, 8)>>>(f, buf, nx, ny, nz);
  pack_face<1><<<dim3(4, 4), dim3(32, 8)>>>(f, buf, nx, ny, nz);
  pack_face<2><<<dim3(4, 4), dim3(32, 8)>>>(f, buf, nx, ny, nz);
}
