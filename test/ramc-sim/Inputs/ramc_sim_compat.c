/* ramc-sim-compat: the RAMC 0.5 API keeps one default context per rank,
 * also when all ranks share one process (simulation), and reports misuse of
 * it: use before ramc_init, a second ramc_init, a double destroy, use after
 * ramc_finalize. One line per outcome, "rank R: <what>: rc=<code> <error>". */
#include "ramc_api.h"

#include <stdio.h>

static int me = -1;

static void report(const char *what, int rc) {
  printf("rank %d: %s: rc=%d %s\n", me, what, rc,
         rc == RAMC_SUCCESS ? "" : ramc_last_error());
  fflush(stdout);
}

int main(void) {
  static char buf[64];
  struct ramc_target_win_info_s w;
  struct ramc_init_win_info_s i = {0};
  printf("before init: rank %d of %d\n", ramc_get_rank(), ramc_get_numranks());
  report("put before init", ramc_put(buf, 8, &i, 0));
  if (ramc_init() != RAMC_SUCCESS) {
    printf("ramc_init: %s\n", ramc_last_error());
    return 1;
  }
  me = ramc_get_rank();
  printf("rank %d of %d\n", me, ramc_get_numranks());
  report("init again", ramc_init());
  report("create", ramc_tgt_create_window(buf, sizeof(buf), 7, 3, &w));
  report("destroy", ramc_tgt_destroy_window(&w));
  report("destroy again", ramc_tgt_destroy_window(&w));
  report("finalize", ramc_finalize());
  report("barrier after finalize", ramc_barrier_linear());
  printf("after finalize: rank %d\n", ramc_get_rank());
  return 0;
}
