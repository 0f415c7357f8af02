// Reads every host clock around a kernel and a device synchronization and
// prints each interval as "<clock>_seconds <value>" (sim-host-clocks.test).
//   host-clocks         without MPI
//   host-clocks mpi     between MPI_Init and MPI_Finalize (also MPI_Wtime)
#include <cuda_runtime.h>
#include <mpi.h>

#include <sys/time.h>
#include <time.h>

#include <chrono>
#include <stdio.h>
#include <string.h>

// OpenMP's clock, declared as omp.h does (no OpenMP runtime is needed: the
// skeleton link wraps it).
extern "C" double omp_get_wtime(void);

__global__ void axpy(double a, const double *x, double *y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

struct Clocks {
  struct timeval tv;
  struct timespec realtime, monotonic, monotonic_raw, process;
  std::chrono::steady_clock::time_point steady;
  std::chrono::system_clock::time_point system;
  std::chrono::high_resolution_clock::time_point high_resolution;
  double wtime = 0, omp = 0;
};

static Clocks readAll(bool mpi) {
  Clocks c;
  gettimeofday(&c.tv, 0);
  clock_gettime(CLOCK_REALTIME, &c.realtime);
  clock_gettime(CLOCK_MONOTONIC, &c.monotonic);
  clock_gettime(CLOCK_MONOTONIC_RAW, &c.monotonic_raw);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c.process);
  c.steady = std::chrono::steady_clock::now();
  c.system = std::chrono::system_clock::now();
  c.high_resolution = std::chrono::high_resolution_clock::now();
  c.omp = omp_get_wtime();
  if (mpi)
    c.wtime = MPI_Wtime();
  return c;
}

static double seconds(const timespec &a, const timespec &b) {
  return (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec);
}

int main(int argc, char **argv) {
  bool mpi = argc > 1 && !strcmp(argv[1], "mpi");
  if (mpi)
    MPI_Init(&argc, &argv);
  long n = 1L << 27;
  double *x, *y;
  if (cudaMalloc((void **)&x, n * sizeof(double)) != cudaSuccess ||
      cudaMalloc((void **)&y, n * sizeof(double)) != cudaSuccess)
    return 1;
  Clocks a = readAll(mpi);
  time_t t0 = time(0);
  axpy<<<(unsigned)(n / 256), 256>>>(2.0, x, y, n);
  cudaDeviceSynchronize();
  Clocks b = readAll(mpi);
  time_t t1 = time(0);
  printf("gettimeofday_seconds %.9g\n",
         (b.tv.tv_sec - a.tv.tv_sec) + 1e-6 * (b.tv.tv_usec - a.tv.tv_usec));
  printf("realtime_seconds %.9g\n", seconds(a.realtime, b.realtime));
  printf("monotonic_seconds %.9g\n", seconds(a.monotonic, b.monotonic));
  printf("monotonic_raw_seconds %.9g\n",
         seconds(a.monotonic_raw, b.monotonic_raw));
  printf("process_seconds %.9g\n", seconds(a.process, b.process));
  printf("steady_clock_seconds %.9g\n",
         std::chrono::duration<double>(b.steady - a.steady).count());
  printf("system_clock_seconds %.9g\n",
         std::chrono::duration<double>(b.system - a.system).count());
  printf("high_resolution_clock_seconds %.9g\n",
         std::chrono::duration<double>(b.high_resolution - a.high_resolution)
             .count());
  printf("omp_get_wtime_seconds %.9g\n", b.omp - a.omp);
  printf("time_whole_seconds %ld\n", (long)(t1 - t0));
  if (mpi) {
    printf("mpi_wtime_seconds %.9g\n", b.wtime - a.wtime);
    MPI_Finalize();
  }
  return 0;
}
