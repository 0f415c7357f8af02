// The MPI skeleton of jacobi.cu with no CUDA at all: plain C and MPI on host
// buffers of the same sizes, with jacobi.cu's communication per iteration —
// two MPI_Sendrecv of NX doubles with the top and bottom neighbours (halo
// rows) and, every NORM_EVERY iterations, an MPI_Allreduce of one double.
// There is no computation: simulating this program with plain SMPI and
// jacobi.cu with Orrery puts the same messages on the network, which is what
// the benchmark comparing the two needs.
//
// Usage: jacobi-mpi [-nx NX] [-ny NY] [-niter N]
//   Always N iterations (default 100), as jacobi -tol 0. NX x NY (default
//   4096 x 4096) is split into slabs of rows like jacobi.cu does, and needs
//   NY - 2 >= ranks.
//
// Output: where jacobi.cu prints the residual norm, this prints a halo
// checksum instead. Every rank fills its slab with rank + 1; the value
// reduced is the first entry of the bottom halo row minus that of the top
// halo row (a halo with no neighbour keeps the rank's own value): 2 on a rank
// with two neighbours, 1 on the two end ranks, 2 x (ranks - 1) in all when
// every exchange reached the right row.
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NORM_EVERY 10

static int arg_int(int argc, char **argv, const char *name, int fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (!strcmp(argv[i], name))
      return atoi(argv[i + 1]);
  return fallback;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  const int nx = arg_int(argc, argv, "-nx", 4096);
  const int ny = arg_int(argc, argv, "-ny", 4096);
  const int iter_max = arg_int(argc, argv, "-niter", 100);
  if (nx < 1 || ny - 2 < size || iter_max < 0) {
    if (rank == 0)
      fprintf(stderr, "jacobi-mpi: needs -nx >= 1, -ny >= ranks + 2 and "
                      "-niter >= 0\n");
    MPI_Finalize();
    return 1;
  }

  // Rows owned by this rank, plus one halo row on each side.
  const int chunk = (ny - 2) / size + ((ny - 2) % size > rank ? 1 : 0);
  const int my_ny = chunk + 2;
  const size_t count = (size_t)nx * my_ny;

  double *a = malloc(count * sizeof(double));
  double *a_new = malloc(count * sizeof(double));
  if (!a || !a_new) {
    fprintf(stderr, "jacobi-mpi: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (size_t i = 0; i < count; ++i)
    a[i] = a_new[i] = rank + 1;

  const int top = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int bottom = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();

  double checksum = 0;
  int iter = 0;
  while (iter < iter_max) {
    const int check_norm = (iter % NORM_EVERY) == 0;

    // Halo exchange.
    MPI_Sendrecv(a_new + nx, nx, MPI_DOUBLE, top, 0, a_new + (my_ny - 1) * nx,
                 nx, MPI_DOUBLE, bottom, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(a_new + (my_ny - 2) * nx, nx, MPI_DOUBLE, bottom, 0, a_new, nx,
                 MPI_DOUBLE, top, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    if (check_norm) {
      checksum = a_new[(my_ny - 1) * nx] - a_new[0];
      MPI_Allreduce(MPI_IN_PLACE, &checksum, 1, MPI_DOUBLE, MPI_SUM,
                    MPI_COMM_WORLD);
      if (rank == 0 && iter % (10 * NORM_EVERY) == 0)
        printf("%5d, %0.6f\n", iter, checksum);
    }
    double *swap = a;
    a = a_new;
    a_new = swap;
    ++iter;
  }

  double elapsed = MPI_Wtime() - t0;
  if (rank == 0)
    printf("jacobi-mpi %dx%d on %d ranks: %d iterations, %.6f s, "
           "halo checksum %.1f\n",
           nx, ny, size, iter, elapsed, checksum);

  free(a_new);
  free(a);
  MPI_Finalize();
  return 0;
}
