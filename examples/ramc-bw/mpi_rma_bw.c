/* ramc-bw-mpi-rma: MPI RMA put bandwidth and latency with the semantics of
 * OSU's osu_put_bw / osu_put_latency (MPI_Win_allocate, passive target, one
 * MPI_Win_lock for the whole run; bandwidth: W MPI_Put then MPI_Win_flush;
 * latency: MPI_Put + MPI_Win_flush). Transport is chosen with Open MPI's
 * --mca btl options (see bench/ramc.sh). */
#include "bench_common.h"

#include <mpi.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n != 2) {
    fprintf(stderr, "ramc-bw-mpi-rma needs exactly 2 processes\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  size_t max = bench_max_size();
  unsigned char *src = malloc(max), *base = NULL;
  memset(src, 0xab, max);
  MPI_Win win;
  MPI_Win_allocate((MPI_Aint)max, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                   &win);
  if (me == 0)
    printf("# ramc-bw-mpi-rma: MPI RMA (osu_put_bw semantics), window %d\n",
           BENCH_WINDOW);
  if (me == 0)
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
  for (size_t s = bench_min_size(); s <= max; s *= 2) {
    int batches = bench_batches(s);
    double t0 = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
      for (int b = 0; b < batches + bench_warmup(s, batches, 1); ++b) {
        if (b == bench_warmup(s, batches, 1))
          t0 = bench_now();
        for (int k = 0; k < BENCH_WINDOW; ++k)
          MPI_Put(src, (int)s, MPI_BYTE, 1, 0, (int)s, MPI_BYTE, win);
        MPI_Win_flush(1, win);
      }
    }
    double bw_time = bench_now() - t0;
    int pp = bench_pingpongs(s);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
      for (int k = 0; k < pp + bench_warmup(s, pp, 0); ++k) {
        if (k == bench_warmup(s, pp, 0))
          t0 = bench_now();
        MPI_Put(src, (int)s, MPI_BYTE, 1, 0, (int)s, MPI_BYTE, win);
        MPI_Win_flush(1, win);
      }
      double lat_time = bench_now() - t0;
      bench_row(s, (double)s * BENCH_WINDOW * batches / bw_time / 1e6,
                lat_time / pp * 1e6);
    }
  }
  if (me == 0)
    MPI_Win_unlock(1, win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  free(src);
  MPI_Finalize();
  return 0;
}
