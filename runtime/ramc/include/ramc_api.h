/* RAMC 0.5-compatible C API: one global default context per process.
 *
 * Programs written against RAMC 0.5 include this header by this name and
 * compile and run unchanged. See docs/ramc.md for the semantics; the
 * context API (ramc/ramc_ctx.h, ramc/ramc.hpp) offers the same operations
 * without global state. */
#ifndef RAMC_API_H
#define RAMC_API_H

#include <stddef.h>
#include <stdint.h>

#include "ramc/ramc_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The target's view of one of its windows. Programs declare it (e.g. on the
 * stack), pass it to ramc_tgt_create_window and may read rank, tag, buffer
 * and status_val. The fields after status_val are private. */
struct ramc_target_win_info_s {
  int rank;
  uint64_t tag;
  void *buffer;
  uint64_t status_val;
  size_t len;
  uint64_t priv_handle;
  uint64_t priv_magic;
};

/* The initiator's view of an attached window: rank is the target's rank,
 * status_val the status value the initiator expects next (local only). */
struct ramc_init_win_info_s {
  int rank;
  uint64_t status_val;
  uint64_t tag;
  size_t len;
  uint64_t priv_handle;
  uint64_t priv_magic;
};

int ramc_init(void);
int ramc_finalize(void);
int ramc_get_rank(void);
int ramc_get_numranks(void);
int ramc_barrier_linear(void);
int ramc_barrier_binary(void);

/* Target side. */
int ramc_tgt_create_window(void *buf, size_t len, uint64_t tag,
                           uint64_t init_status,
                           struct ramc_target_win_info_s *out);
int ramc_tgt_destroy_window(struct ramc_target_win_info_s *win);
int ramc_tgt_post_window(struct ramc_target_win_info_s *win);
int ramc_tgt_activate_bb(void);
int ramc_tgt_deactivate_bb(void);
int ramc_tgt_await_bb_reads(uint64_t expected);
int ramc_tgt_test_bb_reads(uint64_t expected);
int ramc_tgt_await_win_ops(struct ramc_target_win_info_s *win,
                           uint64_t expected);
int ramc_tgt_test_win_ops(struct ramc_target_win_info_s *win,
                          uint64_t expected);
int ramc_tgt_increment_win_status(struct ramc_target_win_info_s *win,
                                  uint64_t value);
int ramc_tgt_set_win_status(struct ramc_target_win_info_s *win, uint64_t value);
uint64_t ramc_tgt_get_win_status_raw(struct ramc_target_win_info_s *win);

/* Initiator side. */
int ramc_init_check_bb_status(int target_rank, uint64_t tag);
int ramc_init_get_bb_status(int target_rank, uint8_t *status, uint64_t *tag);
int ramc_init_get_bb_posting(int target_rank, uint64_t init_status,
                             struct ramc_init_win_info_s *out);
int ramc_init_increment_status(struct ramc_init_win_info_s *win,
                               uint64_t value);
int ramc_init_set_status(struct ramc_init_win_info_s *win, uint64_t value);
int ramc_init_check_win_status(struct ramc_init_win_info_s *win);
int ramc_init_get_win_status(struct ramc_init_win_info_s *win, uint64_t *value,
                             uint64_t *state);

/* Data movement; offsets are byte offsets into the target window. */
int ramc_put(void *local, size_t len, struct ramc_init_win_info_s *win,
             size_t target_offset);
int ramc_put_nb(void *local, size_t len, struct ramc_init_win_info_s *win,
                size_t target_offset);
int ramc_get(void *local, size_t len, struct ramc_init_win_info_s *win,
             size_t target_offset);
int ramc_get_nb(void *local, size_t len, struct ramc_init_win_info_s *win,
                size_t target_offset);
int ramc_await_all_puts(void);
int ramc_await_all_gets(void);
int ramc_atomic_inc(struct ramc_init_win_info_s *win, size_t target_offset);

/* Extensions (not in RAMC 0.5). */

/* The message of the last RAMC_ERROR or RAMC_TIMEOUT, naming the call, the
 * peer and the parameter at fault; "" when there was none. */
const char *ramc_last_error(void);
/* Detaches an initiator from its window; later use is an error. */
int ramc_init_detach(struct ramc_init_win_info_s *win);
/* "provider=... notify=... mr_mode=[...] inject=..." of the default context. */
const char *ramc_describe_transport(void);
/* Sets the deadline of every wait of the default context (milliseconds;
 * RAMC_TIMEOUT_INFINITE to wait forever). */
int ramc_set_timeout_ms(int64_t timeout_ms);

#ifdef __cplusplus
}
#endif

#endif /* RAMC_API_H */
