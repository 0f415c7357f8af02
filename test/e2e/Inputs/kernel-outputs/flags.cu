// A single-GPU solver whose kernel leaves its verdict in managed memory that
// the host reads directly after synchronising: a flag, then a norm.
#include <cstdio>

__global__ void step(double *x, int n, int *more, double *norm) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 0.5;
  if (i == 0) {
    *norm = x[0];
    *more = x[0] > 1e-3;
  }
}

int main() {
  int n = 1 << 20;
  double *x, *norm;
  int *more;
  cudaMalloc(&x, n * sizeof(double));
  cudaMallocManaged(&more, sizeof(int));
  cudaMallocManaged(&norm, sizeof(double));
  int iters = 0;
  do {
    *more = 0;
    step<<<n / 256, 256>>>(x, n, more, norm);
    cudaDeviceSynchronize();
    ++iters;
  } while (*more && iters < 1000);
  std::printf("%d iterations\n", iters);

  int sweeps = 0;
  *norm = 0;
  do {
#pragma orrery device_value(norm=geom(1.0,0.5))
    step<<<n / 256, 256>>>(x, n, more, norm);
    cudaDeviceSynchronize();
    ++sweeps;
  } while (*norm > 1e-3 && sweeps < 1000);
  std::printf("%d sweeps, last norm %g\n", sweeps, *norm);
  return 0;
}
