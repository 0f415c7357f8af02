/* ramc-sim-deadlines: every wait has a deadline, counted in simulated time.
 *
 * Both ranks expose a window and attach to each other's. Rank 0 then waits
 * for a put that never comes (1500 ms) and for rank 1's window to reach a
 * status it never reaches (250 ms); rank 1 waits for a second attach that
 * never comes (100 ms). Each prints its return code, the simulated seconds
 * the wait took ("NAME_seconds S", for check_close.py) and the error. */
#include "ramc/ramc_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sim_test_common.h"

static void report(const char *name, int rc, double t0) {
  printf("%s_seconds %.9f\n%s: rc=%d %s\n", name, now() - t0, name, rc,
         ramc_ctx_error(ctx));
  fflush(stdout);
}

int main(void) {
  char err[1024];
  if (ramc_ctx_create(NULL, &ctx, err, sizeof(err))) {
    fprintf(stderr, "ramc_ctx_create: %s\n", err);
    return 1;
  }
  rank = ramc_ctx_rank(ctx);
  static unsigned char win[64];
  ramc_target_t t;
  ramc_initiator_t i;
  must(ramc_target_create(ctx, win, sizeof(win), 9, 3, &t), "create");
  must(ramc_target_post(ctx, t), "post");
  must(ramc_bb_activate(ctx), "activate");
  must(ramc_initiator_attach(ctx, 1 - rank, 9, 3, RAMC_TIMEOUT_DEFAULT, &i),
       "attach");
  must(ramc_bb_wait_attaches(ctx, 1, RAMC_TIMEOUT_DEFAULT), "attaches");
  must(ramc_ctx_barrier(ctx), "barrier");
  double t0 = now();
  if (rank == 0) {
    report("target_wait", ramc_target_wait(ctx, t, 1, 1500), t0);
    must(ramc_initiator_set_expected(ctx, i, 5), "expect");
    t0 = now();
    report("wait_status", ramc_initiator_wait_status(ctx, i, 250), t0);
  } else {
    report("wait_attaches", ramc_bb_wait_attaches(ctx, 1, 100), t0);
  }
  must(ramc_ctx_barrier(ctx), "barrier");
  ramc_ctx_destroy(ctx);
  return 0;
}
