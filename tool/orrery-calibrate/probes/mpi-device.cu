// orrery-probe-mpi-device: device-buffer MPI point-to-point for
// orrery-calibrate --gpu, under the user's launcher (mpirun -np 2).
//
//   orrery-probe-mpi-device [MAX_BYTES]
//
// Ranks 0 and 1 ping-pong, each on GPU (rank % GPUs), and rank 0 prints one
// "NAME BYTES SECONDS" line per size (the one-way time, half the best round
// trip of 5 trials):
//   mpi_hh      host buffers (the reference),
//   mpi_staged  device buffers copied through host memory by the program
//               (cudaMemcpy to and from pinned buffers around host MPI),
//   mpi_dd      device buffers given to MPI directly, only when the MPI
//               library says it is CUDA-aware (Open MPI's
//               MPIX_Query_cuda_support); it then moves them by its own
//               path (CUDA IPC, GPUDirect RDMA, or its own staging).
// Exits with status 3 and a message when there is no usable GPU.

#include <cuda_runtime.h>
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

void check(cudaError_t E, const char *What) {
  if (E != cudaSuccess) {
    std::fprintf(stderr, "orrery-probe-mpi-device: error: %s: %s\n", What,
                 cudaGetErrorString(E));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

bool cudaAwareMpi() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

enum class Path { Host, Staged, Direct };

/// One message of \p N bytes to or from \p Peer along \p How.
void transfer(Path How, bool Send, char *Dev, char *Host, size_t N, int Peer) {
  char *Buf = How == Path::Direct ? Dev : Host;
  if (Send) {
    if (How == Path::Staged)
      check(cudaMemcpy(Host, Dev, N, cudaMemcpyDeviceToHost), "cudaMemcpy");
    MPI_Send(Buf, static_cast<int>(N), MPI_BYTE, Peer, 0, MPI_COMM_WORLD);
  } else {
    MPI_Recv(Buf, static_cast<int>(N), MPI_BYTE, Peer, 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    if (How == Path::Staged)
      check(cudaMemcpy(Dev, Host, N, cudaMemcpyHostToDevice), "cudaMemcpy");
  }
}

/// The one-way time of \p N bytes along \p How: half the best round trip.
double oneWay(Path How, int Rank, char *Dev, char *Host, size_t N) {
  int Iters = static_cast<int>((2L << 20) / (N ? N : 1));
  Iters = Iters > 50 ? 50 : Iters < 4 ? 4 : Iters;
  double Best = 1e30;
  for (int T = 0; T < 6; ++T) { // trial 0 warms up
    MPI_Barrier(MPI_COMM_WORLD);
    double T0 = MPI_Wtime();
    for (int I = 0; I < Iters; ++I) {
      if (Rank == 0) {
        transfer(How, true, Dev, Host, N, 1);
        transfer(How, false, Dev, Host, N, 1);
      } else if (Rank == 1) {
        transfer(How, false, Dev, Host, N, 0);
        transfer(How, true, Dev, Host, N, 0);
      }
    }
    double Dt = (MPI_Wtime() - T0) / Iters / 2;
    if (T > 0 && Dt < Best)
      Best = Dt;
  }
  return Best;
}

} // namespace

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  int Rank = 0, Size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  size_t MaxBytes = size_t(4) << 20;
  if (Argc > 1) {
    char *End = nullptr;
    unsigned long long V = std::strtoull(Argv[1], &End, 10);
    if (!*Argv[1] || *End || V < 1024) {
      if (Rank == 0)
        std::fprintf(stderr,
                     "orrery-probe-mpi-device: error: MAX_BYTES '%s' is not "
                     "a byte count of at least 1024\n",
                     Argv[1]);
      MPI_Finalize();
      return 2;
    }
    MaxBytes = V;
  }
  if (Size < 2) {
    if (Rank == 0)
      std::fprintf(stderr, "orrery-probe-mpi-device: error: needs 2 ranks "
                           "(mpirun -np 2)\n");
    MPI_Finalize();
    return 2;
  }
  int Count = 0;
  cudaError_t E = cudaGetDeviceCount(&Count);
  int NoGpu = E != cudaSuccess || Count < 1, AnyNoGpu = 0;
  MPI_Allreduce(&NoGpu, &AnyNoGpu, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (AnyNoGpu) {
    if (NoGpu)
      std::fprintf(stderr,
                   "orrery-probe-mpi-device: error: rank %d: no usable GPU "
                   "(cudaGetDeviceCount: %s); run the GPU probes on a "
                   "machine with an NVIDIA GPU and driver\n",
                   Rank, E != cudaSuccess ? cudaGetErrorString(E) : "0");
    MPI_Finalize();
    return 3;
  }
  check(cudaSetDevice(Rank % Count), "cudaSetDevice");
  char *Dev = nullptr, *Host = nullptr;
  check(cudaMalloc(&Dev, MaxBytes), "cudaMalloc");
  check(cudaMallocHost(&Host, MaxBytes), "cudaMallocHost");
  std::memset(Host, 1, MaxBytes);
  check(cudaMemset(Dev, 1, MaxBytes), "cudaMemset");
  bool Direct = cudaAwareMpi();
  if (Rank == 0)
    std::printf("# ranks 0 and 1 on GPUs 0 and %d of %d; MPI %s CUDA-aware\n",
                1 % Count, Count, Direct ? "is" : "is not");
  for (size_t N = 1; N <= MaxBytes; N *= 2) {
    double Hh = oneWay(Path::Host, Rank, Dev, Host, N);
    double St = oneWay(Path::Staged, Rank, Dev, Host, N);
    double Dd = Direct ? oneWay(Path::Direct, Rank, Dev, Host, N) : 0;
    if (Rank != 0)
      continue;
    std::printf("mpi_hh %zu %.9e\n", N, Hh);
    std::printf("mpi_staged %zu %.9e\n", N, St);
    if (Direct)
      std::printf("mpi_dd %zu %.9e\n", N, Dd);
  }
  std::fflush(stdout);
  cudaFree(Dev);
  cudaFreeHost(Host);
  MPI_Finalize();
  return 0;
}
