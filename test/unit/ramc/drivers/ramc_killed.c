/* ramc-killed: the last rank is killed (SIGKILL) mid-run; the survivors'
 * operations on it must fail naming it, and never report success.
 * Run under "mpirun --enable-recovery" so that the survivors live on.
 *
 * Every rank exposes a window and every rank attaches to every other; the
 * victim puts its PID into each survivor's window and, after a barrier,
 * kills itself once every survivor has left the barrier. Each survivor waits
 * until the victim's process is gone (reaped), then, with a short default
 * deadline, tries: a put too large to be injected, an injected put completed by
 * ramc_ctx_wait_puts, non-blocking puts small enough to be aggregated, a run
 * of large non-blocking puts, a read
 * of the victim's window status, and two barriers.
 * It prints one line per outcome, "rank R: <what>: rc=<code> <message>", for
 * FileCheck. Finally the survivors exchange a put among themselves: RAMC still
 * works between live processes. */
#include "ramc/ramc_ctx.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define WIN_LEN (256 * 1024)

static ramc_ctx_t *ctx;
static int rank;

static void report(const char *what, int rc) {
  printf("rank %d: %s: rc=%d %s\n", rank, what, rc,
         rc == RAMC_SUCCESS || rc == RAMC_FAILURE ? "" : ramc_ctx_error(ctx));
  fflush(stdout);
}

static void must(int rc, const char *what) {
  if (rc != RAMC_SUCCESS) {
    fprintf(stderr, "rank %d: setup step %s failed: %s\n", rank, what,
            ramc_ctx_error(ctx));
    exit(1);
  }
}

/* Waits (up to 20 s) until no process has this PID: killed and reaped. */
static int waitGone(pid_t pid) {
  struct timespec ms = {0, 1000000};
  for (int i = 0; i < 20000; ++i) {
    if (kill(pid, 0) != 0 && errno == ESRCH)
      return 1;
    nanosleep(&ms, NULL);
  }
  return 0;
}

static unsigned char win[WIN_LEN];
static unsigned char src[WIN_LEN];

int main(void) {
  char err[1024];
  if (ramc_ctx_create(NULL, &ctx, err, sizeof(err)) != RAMC_SUCCESS) {
    fprintf(stderr, "ramc_ctx_create: %s\n", err);
    return 1;
  }
  rank = ramc_ctx_rank(ctx);
  int n = ramc_ctx_size(ctx);
  if (n < 2) {
    fprintf(stderr, "ramc-killed needs at least 2 processes\n");
    return 1;
  }
  int victim = n - 1;
  ramc_target_t t;
  must(ramc_target_create(ctx, win, sizeof(win), 9, 3, &t), "create");
  must(ramc_target_post(ctx, t), "post");
  must(ramc_bb_activate(ctx), "activate");
  ramc_initiator_t *to = calloc((size_t)n, sizeof(*to));
  for (int r = 0; r < n; ++r)
    if (r != rank)
      must(ramc_initiator_attach(ctx, r, 9, 3, 20000, &to[r]), "attach");
  must(ramc_bb_wait_attaches(ctx, (uint64_t)n - 1, 20000), "attaches");

  if (rank == victim) {
    int64_t pid = getpid();
    for (int r = 0; r < victim; ++r)
      must(ramc_initiator_put(ctx, to[r], &pid, sizeof(pid), 0, 0), "put pid");
    must(ramc_ctx_wait_puts(ctx, 20000), "wait for the pid puts");
    must(ramc_ctx_barrier(ctx), "barrier");
    /* Die only once every survivor has left the barrier: each puts here
     * after it (a survivor still in the barrier would see this rank gone). */
    must(ramc_target_wait(ctx, t, (uint64_t)victim, 20000), "survivors");
    raise(SIGKILL);
  }
  must(ramc_target_wait(ctx, t, 1, 20000), "the victim's pid");
  int64_t pid;
  memcpy(&pid, win, sizeof(pid));
  must(ramc_ctx_barrier(ctx), "barrier");
  /* Not waited for: the victim may be gone by then. */
  must(ramc_initiator_put(ctx, to[victim], &pid, 1, 8, 0), "left the barrier");
  if (!waitGone((pid_t)pid)) {
    fprintf(stderr, "rank %d: rank %d (pid %lld) did not go away\n", rank,
            victim, (long long)pid);
    return 1;
  }
  printf("rank %d: rank %d is gone\n", rank, victim);
  ramc_ctx_set_default_timeout(ctx, 3000);

  /* Larger than any provider's inject size: waits for its completion. */
  report("large put to the killed rank",
         ramc_initiator_put(ctx, to[victim], src, sizeof(src), 0, 0));
  /* Injected: "completes" at once; the wait must not claim success. */
  int rc = ramc_initiator_put(ctx, to[victim], src, 8, 0, 0);
  if (rc == RAMC_SUCCESS)
    rc = ramc_ctx_wait_puts(ctx, 3000);
  report("small put to the killed rank, then wait", rc);
  /* Small non-blocking puts are staged for one message (aggregation): the
   * wait that ships them must not claim success either. */
  static uint64_t words[16];
  rc = RAMC_SUCCESS;
  for (int k = 0; k < 16 && rc == RAMC_SUCCESS; ++k)
    rc = ramc_initiator_put(ctx, to[victim], &words[k], 8, 8 * (size_t)k,
                            RAMC_NONBLOCKING);
  if (rc == RAMC_SUCCESS)
    rc = ramc_ctx_wait_puts(ctx, 3000);
  report("aggregated puts to the killed rank, then wait", rc);
  /* A run of large non-blocking puts: where writes land in order, only the
   * last one notifies, and it is held until the wait (docs/ramc.md, "Runs
   * of large puts"). */
  rc = RAMC_SUCCESS;
  for (int k = 0; k < 20 && rc == RAMC_SUCCESS; ++k)
    rc = ramc_initiator_put(ctx, to[victim], src + 8192 * (size_t)k, 8192,
                            8192 * (size_t)k, RAMC_NONBLOCKING);
  if (rc == RAMC_SUCCESS)
    rc = ramc_ctx_wait_puts(ctx, 3000);
  report("a run of large puts to the killed rank, then wait", rc);
  int rel;
  report("status of the killed rank",
         ramc_initiator_check(ctx, to[victim], &rel));
  report("barrier", ramc_ctx_barrier(ctx));
  report("barrier again", ramc_ctx_barrier(ctx));

  /* Between survivors RAMC still works: rank 1 puts to rank 0, which
   * answers with its PID; rank 1 leaves only once rank 0 has, so that
   * neither leaves while the other's operations on it are in flight. */
  if (victim > 1 && rank <= 1) {
    int peer = 1 - rank;
    int64_t msg[2] = {1000 + rank, getpid()}, got[2];
    if (rank == 1) {
      must(ramc_initiator_put(ctx, to[0], msg, sizeof(msg), 64, 0), "put");
      must(ramc_ctx_wait_puts(ctx, 20000), "wait for the put to rank 0");
    }
    must(ramc_target_wait(ctx, t, 1, 20000), "the other survivor's put");
    memcpy(got, win + 64, sizeof(got));
    printf("rank %d: put between survivors: %s\n", rank,
           got[0] == 1000 + peer ? "arrived" : "WRONG");
    fflush(stdout);
    if (rank == 0) {
      must(ramc_initiator_put(ctx, to[1], msg, sizeof(msg), 64, 0), "put");
      must(ramc_ctx_wait_puts(ctx, 20000), "wait for the put to rank 1");
      /* Completes after the put has landed (both are in order). */
      must(ramc_initiator_get(ctx, to[1], got, sizeof(got), 64, 0), "get");
    } else if (!waitGone((pid_t)got[1])) {
      fprintf(stderr, "rank 1: rank 0 did not leave\n");
      return 1;
    }
  }
  fflush(stdout);
  free(to);
  ramc_ctx_destroy(ctx);
  return 0;
}
