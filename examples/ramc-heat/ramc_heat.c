/* ramc-heat: 2-D 5-point heat diffusion with RAMC's relaxed synchronization.
 *
 *   mpirun -np P ramc-heat [NX NY ITERS [PX PY]]
 *
 * The NX x NY grid (zero Dirichlet boundary) is split over a PX x PY process
 * grid (default: the most square factorization of P). Each process exposes
 * one window holding four halo strips. In iteration k its window's status is
 * 3 + 2k (odd: open). Each process puts its boundary into each neighbour's
 * window as soon as that neighbour's status says epoch k is open - in
 * whatever order the neighbours get there - then waits for as many puts as
 * it has neighbours, closes its window (even status), checks that nothing
 * arrives while it is closed, computes, and reopens it for epoch k + 1.
 * There is no barrier per iteration; neighbours drift by at most one epoch.
 *
 * At the end every process puts its block into a window on rank 0, which
 * recomputes the whole grid serially and compares bit for bit. Written
 * against the RAMC 0.5 API (ramc_api.h). */
#include "ramc_api.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NORTH, SOUTH, WEST, EAST };
#define HALO_TAG 1
#define GATHER_TAG 2
#define ALPHA 0.2

static int rank;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "ramc-heat rank %d: ", rank);                            \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, ": %s\n", ramc_last_error());                            \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static double initial(int gi, int gj) {
  unsigned h = (unsigned)(gi * 73856093) ^ (unsigned)(gj * 19349663);
  return (double)(h % 1000) / 10.0;
}

/* One Jacobi step on a (h+2) x (w+2) array with ghost cells. */
static void step(const double *u, double *v, int h, int w) {
  for (int i = 1; i <= h; ++i)
    for (int j = 1; j <= w; ++j) {
      const double *c = u + i * (w + 2) + j;
      v[i * (w + 2) + j] =
          c[0] + ALPHA * (c[-(w + 2)] + c[w + 2] + c[-1] + c[1] - 4.0 * c[0]);
    }
}

static void serial(int nx, int ny, int iters, double *out) {
  double *u = calloc((size_t)(nx + 2) * (ny + 2), sizeof(double));
  double *v = calloc((size_t)(nx + 2) * (ny + 2), sizeof(double));
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j)
      u[(i + 1) * (ny + 2) + j + 1] = initial(i, j);
  for (int k = 0; k < iters; ++k) {
    step(u, v, nx, ny);
    double *t = u;
    u = v;
    v = t;
  }
  for (int i = 0; i < nx; ++i)
    memcpy(out + (size_t)i * ny, u + (i + 1) * (ny + 2) + 1,
           ny * sizeof(double));
  free(u);
  free(v);
}

/* Block [lo, hi) of n split into p parts, part r. */
static void split(int n, int p, int r, int *lo, int *hi) {
  *lo = (int)((long)n * r / p);
  *hi = (int)((long)n * (r + 1) / p);
}

int main(int argc, char **argv) {
  CHECK(ramc_init() == RAMC_SUCCESS, "ramc_init");
  rank = ramc_get_rank();
  int np = ramc_get_numranks();
  int nx = argc > 1 ? atoi(argv[1]) : 60;
  int ny = argc > 2 ? atoi(argv[2]) : 48;
  int iters = argc > 3 ? atoi(argv[3]) : 100;
  int px = argc > 5 ? atoi(argv[4]) : 0, py = argc > 5 ? atoi(argv[5]) : 0;
  if (px <= 0 || py <= 0) {
    for (px = (int)sqrt((double)np); np % px; --px)
      ;
    py = np / px;
  }
  CHECK(px * py == np, "process grid %d x %d does not match %d processes", px,
        py, np);
  CHECK(nx >= px && ny >= py, "grid %d x %d too small for %d x %d processes",
        nx, ny, px, py);
  int pi = rank / py, pj = rank % py;
  int i0, i1, j0, j1;
  split(nx, px, pi, &i0, &i1);
  split(ny, py, pj, &j0, &j1);
  int h = i1 - i0, w = j1 - j0;
  int nb[4] = {pi > 0 ? rank - py : -1, pi < px - 1 ? rank + py : -1,
               pj > 0 ? rank - 1 : -1, pj < py - 1 ? rank + 1 : -1};
  int nnb = 0;
  for (int d = 0; d < 4; ++d)
    nnb += nb[d] >= 0;

  /* My window: four halo strips, each max(h, w) long, indexed by the side
   * the data comes from. */
  int strip = h > w ? h : w;
  double *halo = calloc(4 * (size_t)strip, sizeof(double));
  struct ramc_target_win_info_s hw, gw;
  CHECK(ramc_tgt_create_window(halo, 4 * strip * sizeof(double), HALO_TAG, 3,
                               &hw) == RAMC_SUCCESS,
        "create halo window");
  CHECK(ramc_tgt_post_window(&hw) == RAMC_SUCCESS, "post halo window");
  double *gathered = NULL;
  if (rank == 0) {
    gathered = calloc((size_t)nx * ny, sizeof(double));
    CHECK(ramc_tgt_create_window(gathered, (size_t)nx * ny * sizeof(double),
                                 GATHER_TAG, 3, &gw) == RAMC_SUCCESS,
          "create gather window");
    CHECK(ramc_tgt_post_window(&gw) == RAMC_SUCCESS, "post gather window");
  }
  CHECK(ramc_tgt_activate_bb() == RAMC_SUCCESS, "activate");

  /* Attach to each neighbour's halo window and to rank 0's gather window.
   * Each strip lands in the neighbour's region for the opposite side. */
  struct ramc_init_win_info_s to[4], gather;
  static const int opposite[4] = {SOUTH, NORTH, EAST, WEST};
  for (int d = 0; d < 4; ++d) {
    if (nb[d] < 0)
      continue;
    int rc;
    while ((rc = ramc_init_check_bb_status(nb[d], HALO_TAG)) == RAMC_FAILURE)
      ;
    CHECK(rc == RAMC_SUCCESS, "bulletin board of rank %d", nb[d]);
    CHECK(ramc_init_get_bb_posting(nb[d], 3, &to[d]) == RAMC_SUCCESS,
          "attach to rank %d", nb[d]);
  }
  {
    int rc;
    while ((rc = ramc_init_check_bb_status(0, GATHER_TAG)) == RAMC_FAILURE)
      ;
    CHECK(rc == RAMC_SUCCESS, "bulletin board of rank 0");
    CHECK(ramc_init_get_bb_posting(0, 3, &gather) == RAMC_SUCCESS,
          "attach to rank 0's gather window");
  }
  CHECK(ramc_tgt_await_bb_reads((uint64_t)nnb + (rank == 0 ? np : 0)) ==
            RAMC_SUCCESS,
        "await attaches");
  CHECK(ramc_tgt_deactivate_bb() == RAMC_SUCCESS, "deactivate");

  /* Local grid with ghost cells. */
  size_t cells = (size_t)(h + 2) * (w + 2);
  double *u = calloc(cells, sizeof(double)), *v = calloc(cells, sizeof(double));
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j)
      u[(i + 1) * (w + 2) + j + 1] = initial(i0 + i, j0 + j);
  double *send[4];
  for (int d = 0; d < 4; ++d)
    send[d] = calloc((size_t)strip, sizeof(double));

  for (int k = 0; k < iters; ++k) {
    /* Pack my boundary strips. */
    for (int j = 0; j < w; ++j) {
      send[NORTH][j] = u[1 * (w + 2) + j + 1];
      send[SOUTH][j] = u[h * (w + 2) + j + 1];
    }
    for (int i = 0; i < h; ++i) {
      send[WEST][i] = u[(i + 1) * (w + 2) + 1];
      send[EAST][i] = u[(i + 1) * (w + 2) + w];
    }
    /* Put each strip as soon as that neighbour opened epoch k. */
    int pending = nnb;
    char sent[4] = {0};
    while (pending) {
      for (int d = 0; d < 4; ++d) {
        if (nb[d] < 0 || sent[d])
          continue;
        int rc = ramc_init_check_win_status(&to[d]);
        if (rc == RAMC_TARGET_BEHIND)
          continue;
        CHECK(rc == RAMC_SUCCESS, "rank %d's window is ahead of epoch %d",
              nb[d], k);
        size_t len = (size_t)(d < WEST ? w : h) * sizeof(double);
        CHECK(ramc_put_nb(send[d], len, &to[d],
                          (size_t)opposite[d] * strip * sizeof(double)) ==
                  RAMC_SUCCESS,
              "put to rank %d", nb[d]);
        ramc_init_increment_status(&to[d], 2);
        sent[d] = 1;
        --pending;
      }
    }
    CHECK(ramc_await_all_puts() == RAMC_SUCCESS, "await puts");
    /* Wait for my neighbours' strips, then close my window. */
    CHECK(ramc_tgt_await_win_ops(&hw, (uint64_t)nnb) == RAMC_SUCCESS,
          "await halos of epoch %d", k);
    CHECK(ramc_tgt_increment_win_status(&hw, 1) == RAMC_SUCCESS, "close");
    for (int j = 0; j < w; ++j) {
      u[0 * (w + 2) + j + 1] = nb[NORTH] >= 0 ? halo[NORTH * strip + j] : 0;
      u[(h + 1) * (w + 2) + j + 1] =
          nb[SOUTH] >= 0 ? halo[SOUTH * strip + j] : 0;
    }
    for (int i = 0; i < h; ++i) {
      u[(i + 1) * (w + 2)] = nb[WEST] >= 0 ? halo[WEST * strip + i] : 0;
      u[(i + 1) * (w + 2) + w + 1] = nb[EAST] >= 0 ? halo[EAST * strip + i] : 0;
    }
    step(u, v, h, w);
    double *t = u;
    u = v;
    v = t;
    CHECK(ramc_tgt_test_win_ops(&hw, 1) == RAMC_FAILURE,
          "a put arrived while the window was closed (epoch %d)", k);
    CHECK(ramc_tgt_increment_win_status(&hw, 1) == RAMC_SUCCESS, "reopen");
  }

  /* Gather on rank 0, one put per row, and compare with the serial run. */
  for (int i = 0; i < h; ++i)
    CHECK(ramc_put(u + (i + 1) * (w + 2) + 1, w * sizeof(double), &gather,
                   ((size_t)(i0 + i) * ny + j0) * sizeof(double)) ==
              RAMC_SUCCESS,
          "gather row %d", i0 + i);
  CHECK(ramc_await_all_puts() == RAMC_SUCCESS, "await gather");
  int status = 0;
  if (rank == 0) {
    /* Every process puts one piece of each of its rows. */
    CHECK(ramc_tgt_await_win_ops(&gw, (uint64_t)nx * py) == RAMC_SUCCESS,
          "await the gathered rows");
    double *ref = malloc((size_t)nx * ny * sizeof(double));
    serial(nx, ny, iters, ref);
    double maxdiff = 0, sum = 0;
    for (size_t c = 0; c < (size_t)nx * ny; ++c) {
      double d = fabs(ref[c] - gathered[c]);
      if (d > maxdiff)
        maxdiff = d;
      sum += gathered[c];
    }
    int exact = memcmp(ref, gathered, (size_t)nx * ny * sizeof(double)) == 0;
    printf("ramc-heat: %d processes as %d x %d, grid %d x %d, %d iterations: "
           "sum %.6f, max |parallel - serial| = %g: %s\n",
           np, px, py, nx, ny, iters, sum, maxdiff,
           exact ? "PASS (bitwise equal)" : "FAIL");
    status = exact ? 0 : 1;
    free(ref);
  }
  CHECK(ramc_barrier_linear() == RAMC_SUCCESS, "barrier");
  CHECK(ramc_tgt_destroy_window(&hw) == RAMC_SUCCESS, "destroy");
  if (rank == 0)
    CHECK(ramc_tgt_destroy_window(&gw) == RAMC_SUCCESS, "destroy");
  CHECK(ramc_finalize() == RAMC_SUCCESS, "finalize");
  return status;
}
