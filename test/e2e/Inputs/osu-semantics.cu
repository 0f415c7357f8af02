// The OSU micro-benchmarks' measurement loops (osu_latency, osu_bw,
// osu_bibw, osu_allreduce, osu_iallreduce of OSU 7.x), small enough to run
// in skeleton mode in a test. Each prints one line "<name> <value>":
//
//   osu-semantics latency    D|H BYTES  one-way latency (us), ranks 0 and 1
//   osu-semantics bw         D|H BYTES  window of 64 sends (MB/s), 0 -> 1
//   osu-semantics bibw       D|H BYTES  windows both ways (MB/s), 0 <-> 1
//   osu-semantics allreduce  D|H BYTES  average time (us), all ranks
//   osu-semantics iallreduce D|H BYTES  MPI_Iallreduce + MPI_Wait (us)
//
// D: device buffers on the GPU the rank's local rank selects; H: host.
// MB/s is 10^6 bytes per second, as the OSU benchmarks print it.
#include <cuda_runtime.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Window = 64, Warmup = 2, Iterations = 10, LatencyIterations = 100 };

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

static char *buffer(int device, long bytes) {
  char *p = NULL;
  if (device)
    check(cudaMalloc((void **)&p, bytes), "cudaMalloc");
  else
    p = (char *)malloc(bytes);
  return p;
}

static double latency(int rank, char *s, char *r, long bytes) {
  double t0 = 0;
  for (int i = 0; i < Warmup + LatencyIterations; ++i) {
    if (i == Warmup)
      t0 = MPI_Wtime();
    if (rank == 0) {
      MPI_Send(s, (int)bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(r, (int)bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(r, (int)bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Send(s, (int)bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - t0) * 1e6 / (2.0 * LatencyIterations);
}

static double bandwidth(int rank, char *s, char *r, long bytes, int both) {
  MPI_Request q[2 * Window];
  char ack[4];
  double t0 = 0;
  for (int i = 0; i < Warmup + Iterations; ++i) {
    if (i == Warmup)
      t0 = MPI_Wtime();
    int n = 0;
    if (rank == 0 || (both && rank == 1)) {
      int peer = 1 - rank;
      if (both)
        for (int w = 0; w < Window; ++w)
          MPI_Irecv(r + w * bytes, (int)bytes, MPI_CHAR, peer, 10,
                    MPI_COMM_WORLD, &q[n++]);
      for (int w = 0; w < Window; ++w)
        MPI_Isend(s + w * bytes, (int)bytes, MPI_CHAR, peer, 10,
                  MPI_COMM_WORLD, &q[n++]);
      MPI_Waitall(n, q, MPI_STATUSES_IGNORE);
      if (rank == 0)
        MPI_Recv(ack, 4, MPI_CHAR, 1, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      else
        MPI_Send(ack, 4, MPI_CHAR, 0, 11, MPI_COMM_WORLD);
    } else if (rank == 1) {
      for (int w = 0; w < Window; ++w)
        MPI_Irecv(r + w * bytes, (int)bytes, MPI_CHAR, 0, 10, MPI_COMM_WORLD,
                  &q[n++]);
      MPI_Waitall(n, q, MPI_STATUSES_IGNORE);
      MPI_Send(ack, 4, MPI_CHAR, 0, 11, MPI_COMM_WORLD);
    }
  }
  double t = MPI_Wtime() - t0;
  return (both ? 2.0 : 1.0) * bytes * Window * Iterations / t / 1e6;
}

static double allreduce(char *s, char *r, long bytes, int nonblocking) {
  int n = (int)(bytes / sizeof(float));
  double t0 = 0;
  for (int i = 0; i < Warmup + Iterations; ++i) {
    if (i == Warmup)
      t0 = MPI_Wtime();
    if (nonblocking) {
      MPI_Request q;
      MPI_Iallreduce(s, r, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &q);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else {
      MPI_Allreduce(s, r, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    }
  }
  double local = (MPI_Wtime() - t0) * 1e6 / Iterations, avg = 0;
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Reduce(&local, &avg, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  return avg / size;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc != 4) {
    if (rank == 0)
      fprintf(stderr, "usage: osu-semantics latency|bw|bibw|allreduce|"
                      "iallreduce D|H BYTES\n");
    MPI_Finalize();
    return 1;
  }
  const char *what = argv[1];
  int device = !strcmp(argv[2], "D");
  long bytes = atol(argv[3]);
  const char *local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  int devices = 1;
  check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  check(cudaSetDevice((local ? atoi(local) : 0) % devices), "cudaSetDevice");
  int windowed = !strcmp(what, "bw") || !strcmp(what, "bibw");
  long total = windowed ? bytes * Window : bytes;
  char *s = buffer(device, total), *r = buffer(device, total);
  MPI_Barrier(MPI_COMM_WORLD);
  double v = 0;
  if (!strcmp(what, "latency"))
    v = latency(rank, s, r, bytes);
  else if (!strcmp(what, "bw"))
    v = bandwidth(rank, s, r, bytes, 0);
  else if (!strcmp(what, "bibw"))
    v = bandwidth(rank, s, r, bytes, 1);
  else if (!strcmp(what, "allreduce"))
    v = allreduce(s, r, bytes, 0);
  else if (!strcmp(what, "iallreduce"))
    v = allreduce(s, r, bytes, 1);
  if (rank == 0)
    printf("%s %.6g\n", what, v);
  MPI_Finalize();
  return 0;
}
