// collbench: OSU-style MPI micro-benchmarks on GPU (device) buffers, one
// program with a subcommand. Device pointers go straight to MPI, so what is
// measured is CUDA-aware MPI: host staging, GPUDirect RDMA or peer copies,
// whichever the MPI (or Orrery's model of it) uses.
//
// Usage: collbench latency|bw|allreduce|allgather|bcast
//                  [-m MIN:MAX] [-i ITERS] [-x WARMUP] [-b host|device]
//
//   latency    ping-pong between ranks 0 and 1 (MPI_Send/MPI_Recv); one-way
//              latency = round-trip time / 2, like osu_latency.
//   bw         rank 0 sends a window of 64 MPI_Isend to rank 1, which posts
//              64 MPI_Irecv and answers with a 4-byte ack once all arrived;
//              bandwidth = bytes sent / time, in MB/s (10^6 B/s), like osu_bw.
//   allreduce  MPI_Allreduce of MPI_FLOAT with MPI_SUM (size / 4 elements;
//              sizes under 4 bytes are skipped), like osu_allreduce.
//   allgather  MPI_Allgather of MPI_CHAR, SIZE bytes from every rank.
//   bcast      MPI_Bcast of MPI_CHAR from rank 0.
//
//   Collectives time each call between MPI_Wtime reads, followed by an
//   untimed MPI_Barrier; each rank averages over the timed iterations and
//   rank 0 prints the average of those averages over all ranks (MPI_Reduce),
//   which is what OSU prints as "Avg Latency(us)".
//
//   -m MIN:MAX  message sizes in bytes, doubling from MIN (or -m MAX alone);
//               default 1:16777216. Allgather caps MAX so that its receive
//               buffer (MAX x ranks) stays within 512 MiB, OSU's default -M.
//   -i ITERS    timed iterations per size (default 100)
//   -x WARMUP   untimed warm-up iterations per size (default 10)
//   -b device   buffers from cudaMalloc (default); -b host: malloc, no CUDA
//               call at all (a plain-MPI baseline).
//
// OSU's own defaults are 10000 (latency), 100 (bw) or 1000 (collectives)
// iterations up to 8 KiB and fewer above; a single -i 100 -x 10 for every
// size keeps simulations cheap. Any number of ranks >= 2 works: latency and
// bw use ranks 0 and 1, the others wait at the barriers. Output follows OSU
// 7.3: its header lines (without a version number, as OSU prints them when
// built without one) and its columns ("%-10d%20.2f"). OSU 7 reduces MPI_CHAR;
// allreduce here reduces MPI_FLOAT, as OSU did before 7: the MPI standard
// allows MPI_SUM on MPI_SIGNED_CHAR, not on MPI_CHAR. Nothing reads device
// memory back, so the control flow is the same when a simulator returns zeros
// for it.
#include <cuda_runtime.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD_WIDTH 20
#define FLOAT_PRECISION 2
#define WINDOW_SIZE 64
#define MAX_MEM_LIMIT (512L * 1024 * 1024)

static void check_cuda(cudaError_t status, const char *file, int line) {
  if (status != cudaSuccess) {
    fprintf(stderr, "%s:%d: CUDA error %d: %s\n", file, line, (int)status,
            cudaGetErrorString(status));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}
#define CUDA_CHECK(call) check_cuda((call), __FILE__, __LINE__)

enum Bench { LATENCY, BW, ALLREDUCE, ALLGATHER, BCAST };
static const char *const kNames[] = {"latency", "bw", "allreduce", "allgather",
                                     "bcast"};
static const char *const kTitles[] = {
    "Latency Test", "Bandwidth Test", "Allreduce Latency Test",
    "Allgather Latency Test", "Broadcast Latency Test"};

struct Options {
  int bench = -1;
  long min_size = 1, max_size = 16L * 1024 * 1024;
  int iters = 100, warmup = 10;
  bool device = true;
  bool help = false;
};

static void usage(FILE *out) {
  fprintf(out, "usage: collbench latency|bw|allreduce|allgather|bcast "
               "[-m MIN:MAX] [-i ITERS] [-x WARMUP] [-b host|device]\n");
}

// A whole-string decimal number in [lo, hi], or -1.
static long parse_long(const char *s, long lo, long hi) {
  char *end = nullptr;
  long v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || v < lo || v > hi)
    return -1;
  return v;
}

// Fills *opt from argv; returns an error message, or nullptr.
static const char *parse_args(int argc, char **argv, Options *opt) {
  if (argc < 2)
    return "missing benchmark";
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    opt->help = true;
    return nullptr;
  }
  for (int b = LATENCY; b <= BCAST; ++b)
    if (!strcmp(argv[1], kNames[b]))
      opt->bench = b;
  if (opt->bench < 0)
    return "unknown benchmark";
  for (int i = 2; i < argc; i += 2) {
    const char *flag = argv[i], *val = i + 1 < argc ? argv[i + 1] : nullptr;
    if (!val)
      return "option needs a value";
    if (!strcmp(flag, "-m")) {
      char text[64];
      snprintf(text, sizeof text, "%s", val);
      char *colon = strchr(text, ':');
      const long limit = 1L << 30;
      if (colon) {
        *colon = '\0';
        opt->min_size = parse_long(text, 1, limit);
        opt->max_size = parse_long(colon + 1, 1, limit);
      } else {
        opt->max_size = parse_long(text, 1, limit);
      }
      if (opt->min_size < 0 || opt->max_size < 0 ||
          opt->min_size > opt->max_size)
        return "bad message sizes";
    } else if (!strcmp(flag, "-i")) {
      if ((opt->iters = (int)parse_long(val, 1, 1L << 30)) < 0)
        return "bad iteration count";
    } else if (!strcmp(flag, "-x")) {
      if ((opt->warmup = (int)parse_long(val, 0, 1L << 30)) < 0)
        return "bad warm-up count";
    } else if (!strcmp(flag, "-b")) {
      if (strcmp(val, "host") && strcmp(val, "device"))
        return "bad buffer kind";
      opt->device = !strcmp(val, "device");
    } else {
      return "unknown option";
    }
  }
  return nullptr;
}

static char *buffer_alloc(size_t bytes, bool device) {
  void *p = nullptr;
  if (device)
    CUDA_CHECK(cudaMalloc(&p, bytes));
  else if (!(p = malloc(bytes)))
    MPI_Abort(MPI_COMM_WORLD, 1);
  return (char *)p;
}

static void buffer_set(char *p, int value, size_t bytes, bool device) {
  if (device)
    CUDA_CHECK(cudaMemset(p, value, bytes));
  else
    memset(p, value, bytes);
}

static void buffer_free(char *p, bool device) {
  if (device)
    CUDA_CHECK(cudaFree(p));
  else
    free(p);
}

static void print_row(long size, double value) {
  printf("%-*ld%*.*f\n", 10, size, FIELD_WIDTH, FLOAT_PRECISION, value);
  fflush(stdout);
}

// Ping-pong (latency) or windowed streaming (bw) between ranks 0 and 1;
// returns the value rank 0 prints (0 on the other ranks).
static double pt2pt(const Options &opt, int rank, long size, char *s, char *r) {
  const int n = (int)size;
  double t_start = 0;
  MPI_Request req[WINDOW_SIZE];
  for (int i = 0; i < opt.iters + opt.warmup; ++i) {
    if (rank == 0 && i == opt.warmup)
      t_start = MPI_Wtime();
    if (opt.bench == LATENCY && rank == 0) {
      MPI_Send(s, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(r, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (opt.bench == LATENCY && rank == 1) {
      MPI_Recv(r, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(s, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    } else if (rank == 0) {
      for (int j = 0; j < WINDOW_SIZE; ++j)
        MPI_Isend(s, n, MPI_CHAR, 1, 100, MPI_COMM_WORLD, &req[j]);
      MPI_Waitall(WINDOW_SIZE, req, MPI_STATUSES_IGNORE);
      MPI_Recv(r, 4, MPI_CHAR, 1, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      for (int j = 0; j < WINDOW_SIZE; ++j)
        MPI_Irecv(r, n, MPI_CHAR, 0, 100, MPI_COMM_WORLD, &req[j]);
      MPI_Waitall(WINDOW_SIZE, req, MPI_STATUSES_IGNORE);
      MPI_Send(s, 4, MPI_CHAR, 0, 101, MPI_COMM_WORLD);
    }
  }
  if (rank != 0)
    return 0;
  const double t = MPI_Wtime() - t_start;
  if (opt.bench == LATENCY)
    return t * 1e6 / (2.0 * opt.iters);
  return size / 1e6 * opt.iters * WINDOW_SIZE / t;
}

// One collective per iteration, timed alone; returns this rank's average in
// microseconds.
static double collective(const Options &opt, long size, char *s, char *r) {
  double timer = 0;
  for (int i = 0; i < opt.iters + opt.warmup; ++i) {
    double t_start = MPI_Wtime();
    if (opt.bench == ALLREDUCE)
      MPI_Allreduce(s, r, (int)(size / 4), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    else if (opt.bench == ALLGATHER)
      MPI_Allgather(s, (int)size, MPI_CHAR, r, (int)size, MPI_CHAR,
                    MPI_COMM_WORLD);
    else
      MPI_Bcast(s, (int)size, MPI_CHAR, 0, MPI_COMM_WORLD);
    double t_stop = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
    if (i >= opt.warmup)
      timer += t_stop - t_start;
  }
  return timer * 1e6 / opt.iters;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, nranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);

  Options opt;
  const char *error = parse_args(argc, argv, &opt);
  if (opt.help) {
    if (rank == 0)
      usage(stdout);
    MPI_Finalize();
    return 0;
  }
  if (!error && nranks < 2)
    error = "needs at least two processes";
  if (error) {
    if (rank == 0) {
      fprintf(stderr, "collbench: %s\n", error);
      usage(stderr);
    }
    MPI_Finalize();
    return 1;
  }
  const bool pt2pt_bench = opt.bench == LATENCY || opt.bench == BW;
  if (opt.bench == ALLGATHER && opt.max_size * nranks > MAX_MEM_LIMIT) {
    opt.max_size = MAX_MEM_LIMIT / nranks;
    if (rank == 0)
      fprintf(stderr, "collbench: limiting the largest size to %ld bytes\n",
              opt.max_size);
  }

  // One GPU per rank of a node, round robin.
  if (opt.device) {
    MPI_Comm node;
    int local_rank, num_devices = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
                        MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local_rank);
    MPI_Comm_free(&node);
    CUDA_CHECK(cudaGetDeviceCount(&num_devices));
    if (num_devices < 1) {
      fprintf(stderr, "collbench: rank %d sees no CUDA device\n", rank);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    CUDA_CHECK(cudaSetDevice(local_rank % num_devices));
  }

  // Allocated once for the largest size, like OSU's single-buffer default;
  // at least 4 bytes for bw's ack.
  const size_t send_bytes = opt.max_size < 4 ? 4 : (size_t)opt.max_size;
  const size_t recv_bytes =
      opt.bench == ALLGATHER ? send_bytes * nranks : send_bytes;
  char *sbuf = buffer_alloc(send_bytes, opt.device);
  char *rbuf = buffer_alloc(recv_bytes, opt.device);

  if (rank == 0) {
    if (!pt2pt_bench)
      printf("\n");
    printf("# OSU MPI%s %s\n", opt.device ? "-CUDA" : "", kTitles[opt.bench]);
    if (pt2pt_bench && opt.device)
      printf("# Send Buffer on DEVICE (D) and Receive Buffer on DEVICE (D)\n");
    if (pt2pt_bench)
      printf("%-*s%*s\n", 10, "# Size", FIELD_WIDTH,
             opt.bench == BW ? "Bandwidth (MB/s)" : "Latency (us)");
    printf("# Datatype: %s.\n",
           opt.bench == ALLREDUCE ? "MPI_FLOAT" : "MPI_CHAR");
    if (!pt2pt_bench)
      printf("%-*s%*s\n", 10, "# Size", FIELD_WIDTH, "Avg Latency(us)");
    fflush(stdout);
  }

  for (long size = opt.min_size; size <= opt.max_size; size *= 2) {
    if (opt.bench == ALLREDUCE && size < 4)
      continue;
    buffer_set(sbuf, 'a', size, opt.device);
    buffer_set(rbuf, 'b', opt.bench == ALLGATHER ? size * nranks : size,
               opt.device);
    if (opt.device)
      CUDA_CHECK(cudaDeviceSynchronize());
    MPI_Barrier(MPI_COMM_WORLD);
    if (pt2pt_bench) {
      double value = pt2pt(opt, rank, size, sbuf, rbuf);
      if (rank == 0)
        print_row(size, value);
    } else {
      double latency = collective(opt, size, sbuf, rbuf), sum = 0;
      MPI_Reduce(&latency, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
      if (rank == 0)
        print_row(size, sum / nranks);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }

  buffer_free(rbuf, opt.device);
  buffer_free(sbuf, opt.device);
  MPI_Finalize();
  return 0;
}
