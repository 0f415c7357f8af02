/* ramc-sim-times: simulated times of single RAMC operations between two
 * ranks, for hand-checked tests (test/ramc-sim/times.test).
 *
 *   ramc-sim-times SIZE...
 *
 * Rank 1 exposes a window; rank 0 attaches. For each SIZE both ranks leave a
 * barrier together, rank 0 makes one blocking put of SIZE bytes and rank 1
 * waits for it: rank 0 prints when its put returned ("put_return_SIZE"),
 * rank 1 when the put arrived ("put_arrival_SIZE"), in seconds after the
 * barrier (simulated time under smpirun). Then rank 0 times a status read,
 * an atomic increment and a 1 MB get. One "name seconds" line each, for
 * test/e2e/Inputs/check_close.py. */
#include "ramc/ramc_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sim_test_common.h"

int main(int argc, char **argv) {
  char err[1024];
  if (ramc_ctx_create(NULL, &ctx, err, sizeof(err))) {
    fprintf(stderr, "ramc_ctx_create: %s\n", err);
    return 1;
  }
  rank = ramc_ctx_rank(ctx);
  if (ramc_ctx_size(ctx) != 2) {
    fprintf(stderr, "ramc-sim-times needs exactly 2 ranks\n");
    return 1;
  }
  size_t max = 1000000;
  unsigned char *buf = calloc(1, max);
  ramc_target_t t = 0;
  ramc_initiator_t i = 0;
  if (rank == 1) {
    must(ramc_target_create(ctx, buf, max, 5, 3, &t), "create");
    must(ramc_target_post(ctx, t), "post");
    must(ramc_bb_activate(ctx), "activate");
  } else {
    must(ramc_initiator_attach(ctx, 1, 5, 3, RAMC_TIMEOUT_DEFAULT, &i),
         "attach");
  }
  for (int a = 1; a < argc; ++a) {
    size_t n = (size_t)atol(argv[a]);
    must(ramc_ctx_barrier(ctx), "barrier");
    double t0 = now();
    if (rank == 0) {
      must(ramc_initiator_put(ctx, i, buf, n, 0, 0), "put");
      printf("put_return_%zu %.12g\n", n, now() - t0);
    } else {
      must(ramc_target_wait(ctx, t, 1, RAMC_TIMEOUT_DEFAULT), "wait");
      printf("put_arrival_%zu %.12g\n", n, now() - t0);
    }
    fflush(stdout);
  }
  must(ramc_ctx_barrier(ctx), "barrier");
  if (rank == 0) {
    uint64_t v;
    double t0 = now();
    must(ramc_initiator_read_status(ctx, i, &v), "status read");
    printf("status_read %.12g\nstatus_value %llu\n", now() - t0,
           (unsigned long long)v);
    t0 = now();
    must(ramc_initiator_atomic_inc(ctx, i, 0), "atomic");
    printf("atomic_increment %.12g\n", now() - t0);
    t0 = now();
    must(ramc_initiator_get(ctx, i, buf, max, 0, 0), "get");
    printf("get_%zu %.12g\n", max, now() - t0);
    fflush(stdout);
  }
  must(ramc_ctx_barrier(ctx), "barrier");
  if (rank == 1) {
    uint64_t arrived, consumed;
    must(ramc_target_counts(ctx, t, &arrived, &consumed), "counts");
    printf("arrived %llu\nconsumed %llu\n", (unsigned long long)arrived,
           (unsigned long long)consumed);
    ramc_target_destroy(ctx, t);
  } else {
    ramc_initiator_detach(ctx, i);
  }
  ramc_ctx_destroy(ctx);
  free(buf);
  return 0;
}
