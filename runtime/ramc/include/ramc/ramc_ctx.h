/* RAMC context API, C form: every call names its context explicitly, so a
 * process may hold several contexts (one per simulated rank, one per thread).
 * A context is not thread-safe; use one per thread.
 *
 * Windows and attachments are handles (64-bit values), validated on every
 * call: a stale or destroyed handle yields RAMC_ERROR, never a crash.
 * Every call returns a RAMC_* code; after RAMC_ERROR or RAMC_TIMEOUT,
 * ramc_ctx_error() names the call, the peer and the parameter at fault.
 * Timeouts are in milliseconds; RAMC_TIMEOUT_DEFAULT uses the context's
 * default deadline. */
#ifndef RAMC_RAMC_CTX_H
#define RAMC_RAMC_CTX_H

#include <stddef.h>
#include <stdint.h>

#include "ramc/ramc_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ramc_ctx ramc_ctx_t;
typedef uint64_t ramc_target_t;    /* a window this process exposes */
typedef uint64_t ramc_initiator_t; /* an attachment to a remote window */

typedef struct ramc_ctx_options {
  const char *provider;       /* libfabric provider name; NULL: RAMC_PROVIDER
                                 or FI_PROVIDER, else the best available */
  int notify;                 /* RAMC_NOTIFY_*; AUTO: RAMC_NOTIFY or best */
  int bootstrap;              /* RAMC_BOOTSTRAP_*; AUTO: PMIx, MPI, single */
  int64_t default_timeout_ms; /* deadline of every wait; <0: RAMC_TIMEOUT_MS
                                 from the environment, else 120000 */
  int delivery_complete;      /* 1: puts complete at the target (CXI option);
                                 <0: RAMC_DELIVERY_COMPLETE from environment */
} ramc_ctx_options_t;

/* Fills *opts with the defaults (everything from the environment). */
void ramc_ctx_options_init(ramc_ctx_options_t *opts);

/* Creates a context (collective over all processes of the job: exchanges
 * addresses through the bootstrap). On failure *out is NULL and, when errbuf
 * is not NULL, the reason is written there. */
int ramc_ctx_create(const ramc_ctx_options_t *opts, ramc_ctx_t **out,
                    char *errbuf, size_t errlen);
/* Releases every window, attachment, memory registration and endpoint. */
int ramc_ctx_destroy(ramc_ctx_t *ctx);

int ramc_ctx_rank(const ramc_ctx_t *ctx);
int ramc_ctx_size(const ramc_ctx_t *ctx);
const char *ramc_ctx_error(const ramc_ctx_t *ctx);
const char *ramc_ctx_provider(const ramc_ctx_t *ctx);
const char *ramc_ctx_bootstrap_name(const ramc_ctx_t *ctx);
int ramc_ctx_notify_mode(const ramc_ctx_t *ctx); /* RAMC_NOTIFY_MR_COUNTER or
                                                    RAMC_NOTIFY_CQ_DATA */
size_t ramc_ctx_inject_size(const ramc_ctx_t *ctx);
/* "provider=... notify=... mr_mode=[...] inject=... bootstrap=..." */
const char *ramc_ctx_describe(const ramc_ctx_t *ctx);
int ramc_ctx_barrier(ramc_ctx_t *ctx);
int ramc_ctx_progress(ramc_ctx_t *ctx);
int ramc_ctx_set_default_timeout(ramc_ctx_t *ctx, int64_t timeout_ms);

/* Target side. */
int ramc_target_create(ramc_ctx_t *ctx, void *buf, size_t len, uint64_t tag,
                       uint64_t init_status, ramc_target_t *out);
int ramc_target_destroy(ramc_ctx_t *ctx, ramc_target_t target);
int ramc_target_post(ramc_ctx_t *ctx, ramc_target_t target);
int ramc_target_unpost(ramc_ctx_t *ctx, ramc_target_t target);
int ramc_target_set_status(ramc_ctx_t *ctx, ramc_target_t target,
                           uint64_t value);
int ramc_target_add_status(ramc_ctx_t *ctx, ramc_target_t target,
                           uint64_t delta);
int ramc_target_status(ramc_ctx_t *ctx, ramc_target_t target, uint64_t *value);
/* Consume semantics: succeeds (RAMC_SUCCESS) when at least n operations
 * arrived beyond those already consumed, and consumes n of them; otherwise
 * RAMC_FAILURE at once (test) or when the deadline passes, RAMC_TIMEOUT. */
int ramc_target_test(ramc_ctx_t *ctx, ramc_target_t target, uint64_t n);
int ramc_target_wait(ramc_ctx_t *ctx, ramc_target_t target, uint64_t n,
                     int64_t timeout_ms);
int ramc_target_counts(ramc_ctx_t *ctx, ramc_target_t target, uint64_t *arrived,
                       uint64_t *consumed);

/* Bulletin board of this process. */
int ramc_bb_activate(ramc_ctx_t *ctx);
int ramc_bb_deactivate(ramc_ctx_t *ctx);
int ramc_bb_test_attaches(ramc_ctx_t *ctx, uint64_t n);
int ramc_bb_wait_attaches(ramc_ctx_t *ctx, uint64_t n, int64_t timeout_ms);

/* Initiator side: reading a peer's bulletin board. *state is
 * RAMC_BB_STATUS_*; *latest_tag the tag of the most recent posting. */
int ramc_bb_read(ramc_ctx_t *ctx, int peer, uint8_t *state,
                 uint64_t *latest_tag);
/* RAMC_SUCCESS when peer's board is active and has a posting with tag,
 * RAMC_FAILURE when not (yet). */
int ramc_bb_check(ramc_ctx_t *ctx, int peer, uint64_t tag);
/* Attaches to the window peer posted under tag, waiting up to timeout_ms
 * for it to be posted (0: one look). The attach is acknowledged to the
 * target, which counts it (ramc_bb_wait_attaches). */
int ramc_initiator_attach(ramc_ctx_t *ctx, int peer, uint64_t tag,
                          uint64_t init_status, int64_t timeout_ms,
                          ramc_initiator_t *out);
int ramc_initiator_detach(ramc_ctx_t *ctx, ramc_initiator_t init);
int ramc_initiator_info(ramc_ctx_t *ctx, ramc_initiator_t init, int *peer,
                        uint64_t *tag, size_t *len);
int ramc_initiator_expected(ramc_ctx_t *ctx, ramc_initiator_t init,
                            uint64_t *value);
int ramc_initiator_set_expected(ramc_ctx_t *ctx, ramc_initiator_t init,
                                uint64_t value);
int ramc_initiator_add_expected(ramc_ctx_t *ctx, ramc_initiator_t init,
                                uint64_t delta);
/* Reads the target's status value (one small remote read). */
int ramc_initiator_read_status(ramc_ctx_t *ctx, ramc_initiator_t init,
                               uint64_t *value);
/* Reads the target's status and compares it with the expected value:
 * *relation is RAMC_SUCCESS when equal, RAMC_TARGET_BEHIND when the target is
 * behind, RAMC_TARGET_AHEAD when ahead. Returns RAMC_SUCCESS, RAMC_ERROR or
 * RAMC_TIMEOUT (kept apart from the relation: the RAMC 0.5 values of
 * RAMC_TARGET_BEHIND/AHEAD equal those of RAMC_ERROR/RAMC_TIMEOUT). */
int ramc_initiator_check(ramc_ctx_t *ctx, ramc_initiator_t init, int *relation);
/* Polls until the target's status equals the expected value. */
int ramc_initiator_wait_status(ramc_ctx_t *ctx, ramc_initiator_t init,
                               int64_t timeout_ms);
int ramc_initiator_put(ramc_ctx_t *ctx, ramc_initiator_t init, const void *src,
                       size_t len, size_t offset, unsigned flags);
int ramc_initiator_get(ramc_ctx_t *ctx, ramc_initiator_t init, void *dst,
                       size_t len, size_t offset, unsigned flags);
int ramc_initiator_atomic_inc(ramc_ctx_t *ctx, ramc_initiator_t init,
                              size_t offset);
/* Waits until every non-blocking put (get) of this context completed
 * locally: the source (destination) buffer may be reused (read). */
int ramc_ctx_wait_puts(ramc_ctx_t *ctx, int64_t timeout_ms);
int ramc_ctx_wait_gets(ramc_ctx_t *ctx, int64_t timeout_ms);

/* Diagnostics: libfabric objects (fabrics, domains, endpoints, address
 * vectors, completion queues, memory registrations, counters) that RAMC
 * opened and has not closed, over all contexts of the process. 0 after the
 * last context is destroyed. */
long ramc_debug_live_objects(void);

#ifdef __cplusplus
}
#endif

#endif /* RAMC_RAMC_CTX_H */
