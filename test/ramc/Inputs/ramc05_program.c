/* A RAMC 0.5 program: written against the published API only (names,
 * argument orders, return codes, public struct fields), so it must compile
 * as C99 and run unchanged against Orrery's RAMC. Every rank puts its rank
 * into slot `rank` of rank 0's window; rank 0 waits for all of them. */
#include "ramc_api.h"

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  if (ramc_init() != RAMC_SUCCESS)
    return 1;
  int me = ramc_get_rank(), n = ramc_get_numranks();
  uint64_t *slots = (uint64_t *)calloc((size_t)n, sizeof(uint64_t));
  struct ramc_target_win_info_s tw;
  struct ramc_init_win_info_s iw;
  if (me == 0) {
    if (ramc_tgt_create_window(slots, n * sizeof(uint64_t), 42,
                               RAMC_TARGET_STATUS_INITIALIZE + 1,
                               &tw) != RAMC_SUCCESS ||
        ramc_tgt_post_window(&tw) != RAMC_SUCCESS ||
        ramc_tgt_activate_bb() != RAMC_SUCCESS)
      return 1;
  }
  while (ramc_init_check_bb_status(0, 42) != RAMC_SUCCESS)
    ;
  if (ramc_init_get_bb_posting(0, 3, &iw) != RAMC_SUCCESS)
    return 1;
  if (me == 0 && ramc_tgt_await_bb_reads((uint64_t)n) != RAMC_SUCCESS)
    return 1;
  uint64_t value, state;
  ramc_init_get_win_status(&iw, &value, &state);
  if (state != RAMC_TARGET_WRITE ||
      ramc_init_check_win_status(&iw) != RAMC_SUCCESS)
    return 1;
  uint64_t mine = 100 + (uint64_t)me;
  ramc_put(&mine, sizeof(mine), &iw, (size_t)me * sizeof(uint64_t));
  ramc_await_all_puts();
  if (me == 0) {
    if (ramc_tgt_await_win_ops(&tw, (uint64_t)n) != RAMC_SUCCESS)
      return 1;
    ramc_tgt_increment_win_status(&tw, 1);
    int ok = tw.status_val == 4 && ramc_tgt_get_win_status_raw(&tw) == 4;
    for (int r = 0; r < n; ++r)
      ok = ok && slots[r] == 100 + (uint64_t)r;
    printf("ramc05 program: %d ranks: %s\n", n, ok ? "PASS" : "FAIL");
  }
  ramc_barrier_linear();
  if (me == 0)
    ramc_tgt_destroy_window(&tw);
  ramc_finalize();
  return 0;
}
