// A smoothing sweep with a block-reduced residual, in the style of the
// multi-GPU Jacobi tutorials (cub::BlockReduce under -DHAVE_CUB).
#include <cuda_runtime.h>
#ifdef HAVE_CUB
#include <cub/block/block_reduce.cuh>
#endif

constexpr int BlockSize = 256;

__global__ void sweep(double *out, const double *in, double *norm, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double r = 0;
  if (i >= 1 && i < n - 1) {
    double v = 0.5 * (in[i - 1] + in[i + 1]);
    r = (v - in[i]) * (v - in[i]);
    out[i] = v;
  }
#ifdef HAVE_CUB
  typedef cub::BlockReduce<double, BlockSize> Reduce;
  __shared__ typename Reduce::TempStorage tmp;
  double sum = Reduce(tmp).Sum(r);
  if (threadIdx.x == 0)
    atomicAdd(norm, sum);
#else
  atomicAdd(norm, r);
#endif
}

void launch_sweep(double *out, const double *in, double *norm, int n,
                  cudaStream_t s) {
  sweep<<<(n + BlockSize - 1) / BlockSize, BlockSize, 0, s>>>(out, in, norm,
                                                               n);
}
