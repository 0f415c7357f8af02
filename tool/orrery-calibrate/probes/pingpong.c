// Probe: host-buffer MPI point-to-point between ranks 0 and 1 (ping-pong).
// For each message size, rank 0 prints "pingpong BYTES SECONDS", SECONDS the
// one-way time (half the best-of-trials round trip per iteration). Used by
// orrery-calibrate (docs/calibrate.md) and, with orrery-cxx in native mode,
// as the fidelity sweep (bench/fidelity.sh). Sizes: 1 B to 4 MiB, powers of
// two and the midpoints between them.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int rank, size;
  long max_bytes = 4L << 20;
  int trials = 5;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1)
    max_bytes = atol(argv[1]);
  if (argc > 2)
    trials = atoi(argv[2]);
  if (size < 2) {
    if (rank == 0)
      fprintf(stderr, "pingpong: needs at least 2 ranks (mpirun -np 2)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char *buf = malloc(max_bytes > 0 ? max_bytes : 1);
  memset(buf, 1, max_bytes > 0 ? max_bytes : 1);
  for (long base = 1; base <= max_bytes; base *= 2) {
    long sizes[2] = {base, base + base / 2};
    for (int s = 0; s < 2; ++s) {
      long n = sizes[s];
      if (n > max_bytes || (s == 1 && base < 2))
        continue;
      // Fewer iterations for large messages: about 2 MiB moved per trial.
      int iters = (int)((2L << 20) / n);
      if (iters > 100)
        iters = 100;
      if (iters < 4)
        iters = 4;
      double best = 1e30;
      for (int t = 0; t < trials + 1; ++t) { // trial 0 warms up
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; ++i) {
          if (rank == 0) {
            MPI_Send(buf, (int)n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, (int)n, MPI_BYTE, 1, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
          } else if (rank == 1) {
            MPI_Recv(buf, (int)n, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
          }
        }
        double dt = (MPI_Wtime() - t0) / iters / 2;
        if (t > 0 && dt < best)
          best = dt;
      }
      if (rank == 0)
        printf("pingpong %ld %.9e\n", n, best);
    }
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
