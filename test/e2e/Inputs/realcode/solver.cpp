// A 1-D relaxation solver that iterates until its residual norm, computed on
// the GPU and copied back every iteration, drops below a tolerance -- the
// loop a skeleton simulation ends after one iteration unless the norm read
// is given a value (orrery-run --device-value solver.cpp:LINE=VALUE).
#include <cuda_runtime.h>
#include <mpi.h>
#include <mpi-ext.h>
#include <nvToolsExt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

void launch_sweep(double *out, const double *in, double *norm, int n,
                  cudaStream_t s);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  if (MPIX_Query_cuda_support() != 1) {
    std::fprintf(stderr, "MPI is not CUDA-aware\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
#else
#error "mpi-ext.h does not say whether MPI is CUDA-aware"
#endif
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // The GPU from the launcher's local rank, as the OSU benchmarks do.
  const char *local = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  int devices = 0;
  cudaGetDeviceCount(&devices);
  int device = local ? std::atoi(local) % devices : 0;
  cudaSetDevice(device);
  int max_iter = argc > 1 ? std::atoi(argv[1]) : 100;
  const int n = 1 << 20;
  // A whole-domain host array on every rank, as solvers keep for a
  // reference solution (shared by all ranks in skeleton mode).
  double *whole = static_cast<double *>(std::malloc(size_t(n) * 64 * 8));
  double *a, *b, *norm_d, *norm_h;
  cudaMalloc(&a, n * sizeof(double));
  cudaMalloc(&b, n * sizeof(double));
  cudaMalloc(&norm_d, sizeof(double));
  cudaMallocHost(&norm_h, sizeof(double));
  cudaStream_t s;
  cudaStreamCreate(&s);
  int top = (rank + 1) % size, bottom = (rank + size - 1) % size;
  double norm = 1.0;
  int iter = 0;
  nvtxRangePushA("solve");
  while (norm > 1e-8 && iter < max_iter) {
    cudaMemsetAsync(norm_d, 0, sizeof(double), s);
    launch_sweep(b, a, norm_d, n, s);
    cudaMemcpyAsync(norm_h, norm_d, sizeof(double), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    MPI_Sendrecv(b + 1, 1, MPI_DOUBLE, top, 0, b + n - 1, 1, MPI_DOUBLE,
                 bottom, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(norm_h, &norm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    norm = std::sqrt(norm);
    std::swap(a, b);
    ++iter;
  }
  nvtxRangePop();
  cudaMemcpy(whole + size_t(rank % 64) * n, a, n * sizeof(double),
             cudaMemcpyDeviceToHost);
  if (whole[size_t(rank % 64) * n] != 0.0)
    std::printf("rank %d: the result differs from the reference\n", rank);
  std::free(whole);
  if (rank == 0)
    std::printf("iterations %d\n", iter);
  std::printf("rank %d device %d of %d\n", rank, device, devices);
  cudaFree(a);
  cudaFree(b);
  cudaFree(norm_d);
  cudaFreeHost(norm_h);
  MPI_Finalize();
  return 0;
}
