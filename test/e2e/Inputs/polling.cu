// Polling loops (test/e2e/sim-polling.test): spins until work completes on
// cudaStreamQuery, cudaEventQuery, MPI_Test, MPI_Wtime and clock_gettime,
// counting the calls, and prints for each "<name>_polls <count>" and
// "<name>_seconds <simulated seconds the loop took>".
// Rank 0 copies BYTES device to host (asynchronously for the CUDA polls),
// then sends rank 1 a message rank 1 has been testing for.
#include <cuda_runtime.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void check(cudaError_t E, const char *What) {
  if (E != cudaSuccess) {
    fprintf(stderr, "%s failed: %d\n", What, (int)E);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

static void print(const char *Name, long Polls, double Seconds) {
  printf("%s_polls %ld\n%s_seconds %.9f\n", Name, Polls, Name, Seconds);
}

static double monotonic() {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000000;
  void *dev, *host;
  check(cudaMalloc(&dev, bytes), "cudaMalloc");
  check(cudaMallocHost(&host, bytes), "cudaMallocHost");
  cudaStream_t s;
  cudaEvent_t e;
  check(cudaStreamCreate(&s), "cudaStreamCreate");
  check(cudaEventCreate(&e), "cudaEventCreate");
  MPI_Barrier(MPI_COMM_WORLD);

  if (rank == 0) {
    check(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, s),
          "cudaMemcpyAsync");
    double t0 = MPI_Wtime();
    long polls = 1;
    cudaError_t q;
    while ((q = cudaStreamQuery(s)) == cudaErrorNotReady)
      ++polls;
    check(q, "cudaStreamQuery");
    print("stream", polls, MPI_Wtime() - t0);

    check(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, s),
          "cudaMemcpyAsync");
    check(cudaEventRecord(e, s), "cudaEventRecord");
    t0 = MPI_Wtime();
    polls = 1;
    while ((q = cudaEventQuery(e)) == cudaErrorNotReady)
      ++polls;
    check(q, "cudaEventQuery");
    print("event", polls, MPI_Wtime() - t0);

    usleep(1); // a new streak of clock reads
    t0 = MPI_Wtime();
    polls = 1;
    while (MPI_Wtime() - t0 < 0.01)
      ++polls;
    print("wtime", polls + 1, MPI_Wtime() - t0);
    // Straight-line reads after the loop, still in its streak: not at the
    // loop's head, so 10 ns each.
    double r0 = MPI_Wtime();
    double r1 = MPI_Wtime();
    print("after_loop", 2, r1 - r0);

    usleep(1);
    double c0 = monotonic();
    polls = 1;
    while (monotonic() - c0 < 0.01)
      ++polls;
    print("clock_gettime", polls + 1, monotonic() - c0);

    // Rank 1 tests for this message while the copy runs.
    check(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    int token = 1;
    MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    int token = 0, done = 0;
    MPI_Request r;
    MPI_Irecv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
    double t0 = MPI_Wtime();
    long polls = 0;
    while (!done) {
      MPI_Test(&r, &done, MPI_STATUS_IGNORE);
      ++polls;
    }
    print("mpi_test", polls, MPI_Wtime() - t0);
  }
  MPI_Finalize();
  return 0;
}
