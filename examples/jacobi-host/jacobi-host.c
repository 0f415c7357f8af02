// 2-D Jacobi on host buffers with an MPI halo exchange: the host-code
// counterpart of examples/jacobi (no GPU). Each rank owns ROWS rows of a
// COLS-wide grid (a 1-D decomposition by rows); every iteration exchanges
// one boundary row with each neighbour (MPI_Sendrecv), relaxes the 5-point
// stencil and, every CHECK iterations, sums the squared update over all
// ranks (MPI_Allreduce). The top edge of the global grid is held at 1, the
// others at 0.
//
// Usage: jacobi-host [COLS [ROWS [ITERS [CHECK]]]]   (default 1024 256 200 10)
// Rank 0 prints "jacobi-host COLS ROWS ITERS ranks N residual R seconds S".
// Built natively (orrery-cc --orrery-mode=native) and as a skeleton
// (--orrery-mode=skeleton, run with orrery-run --host-compute) for
// bench/fidelity.sh.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long arg(int argc, char **argv, int i, long fallback) {
  if (argc <= i)
    return fallback;
  char *end = NULL;
  long v = strtol(argv[i], &end, 10);
  if (*argv[i] == '\0' || *end != '\0' || v < 1) {
    fprintf(stderr,
            "jacobi-host: argument %d ('%s') must be a positive integer\n"
            "usage: jacobi-host [COLS [ROWS [ITERS [CHECK]]]]\n",
            i, argv[i]);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long cols = arg(argc, argv, 1, 1024);
  long rows = arg(argc, argv, 2, 256);
  long iters = arg(argc, argv, 3, 200);
  long check = arg(argc, argv, 4, 10);
  if (cols < 3) {
    if (rank == 0)
      fprintf(stderr, "jacobi-host: COLS must be at least 3\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  // Rows 0 and rows + 1 are halos (or the fixed global edge).
  size_t cells = (size_t)(rows + 2) * (size_t)cols;
  double *a = calloc(cells, sizeof(double));
  double *b = calloc(cells, sizeof(double));
  if (!a || !b) {
    fprintf(stderr, "jacobi-host: rank %d: cannot allocate 2 x %zu doubles\n",
            rank, cells);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  if (rank == 0)
    for (long j = 0; j < cols; ++j)
      a[j] = b[j] = 1.0;

  double residual = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (long it = 1; it <= iters; ++it) {
    // First interior row up, last interior row down, and the halos back.
    MPI_Sendrecv(a + cols, (int)cols, MPI_DOUBLE, up, 0,
                 a + (rows + 1) * cols, (int)cols, MPI_DOUBLE, down, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(a + rows * cols, (int)cols, MPI_DOUBLE, down, 1, a,
                 (int)cols, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    double local = 0;
    for (long i = 1; i <= rows; ++i) {
      const double *n = a + (i - 1) * cols, *c = a + i * cols,
                   *s = a + (i + 1) * cols;
      double *o = b + i * cols;
      for (long j = 1; j < cols - 1; ++j) {
        double v = 0.25 * (n[j] + s[j] + c[j - 1] + c[j + 1]);
        double d = v - c[j];
        local += d * d;
        o[j] = v;
      }
    }
    double *t = a;
    a = b;
    b = t;
    if (it % check == 0 || it == iters)
      MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM,
                    MPI_COMM_WORLD);
  }
  double seconds = MPI_Wtime() - t0;
  if (rank == 0)
    printf("jacobi-host %ld %ld %ld ranks %d residual %.6e seconds %.6f\n",
           cols, rows, iters, size, residual, seconds);
  free(a);
  free(b);
  MPI_Finalize();
  return 0;
}
