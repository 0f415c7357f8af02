/* ramc-misuse: misuse and failures across processes (context C API).
 * Every scenario prints one line per observed outcome, "rank R: <what>:
 * rc=<code> <message>", for FileCheck; nothing may crash or hang.
 *
 *   destroyed  rank 1 destroys a window rank 0 is attached to; rank 0's status
 *              check, puts and gets must fail naming rank 1
 *   detached   puts/gets/status through a detached initiator, wrong tags,
 *              zero-length puts, puts past the end
 *   dead-peer  rank 1 leaves (closes its endpoint and exits); rank 0's waits
 *              on it fail within their deadline, naming rank 1 */
#include "ramc/ramc_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static ramc_ctx_t *ctx;
static int rank;

static void report(const char *what, int rc) {
  printf("rank %d: %s: rc=%d %s\n", rank, what, rc,
         rc == RAMC_SUCCESS || rc == RAMC_FAILURE ? "" : ramc_ctx_error(ctx));
  fflush(stdout);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void must(int rc, const char *what) {
  if (rc != RAMC_SUCCESS) {
    fprintf(stderr, "rank %d: setup step %s failed: %s\n", rank, what,
            ramc_ctx_error(ctx));
    exit(1);
  }
}

static unsigned char win[4096];

static int destroyed(void) {
  ramc_target_t t = 0;
  ramc_initiator_t i = 0;
  if (rank == 1) {
    must(ramc_target_create(ctx, win, sizeof(win), 77, 3, &t), "create");
    must(ramc_target_post(ctx, t), "post");
    must(ramc_bb_activate(ctx), "activate");
    must(ramc_bb_wait_attaches(ctx, 1, 10000), "attaches");
  } else {
    must(ramc_initiator_attach(ctx, 1, 77, 3, 10000, &i), "attach");
  }
  must(ramc_ctx_barrier(ctx), "barrier");
  if (rank == 1) {
    report("destroy", ramc_target_destroy(ctx, t));
    report("destroy again", ramc_target_destroy(ctx, t));
  }
  must(ramc_ctx_barrier(ctx), "barrier");
  if (rank == 0) {
    unsigned char src[2048] = {1};
    int rel;
    report("check status of destroyed window",
           ramc_initiator_check(ctx, i, &rel));
    int rc = ramc_initiator_put(ctx, i, src, 8, 0, 0);
    if (rc == RAMC_SUCCESS)
      rc = ramc_ctx_wait_puts(ctx, 5000);
    report("small put to destroyed window", rc);
    rc = ramc_initiator_put(ctx, i, src, sizeof(src), 0, 0);
    if (rc == RAMC_SUCCESS)
      rc = ramc_ctx_wait_puts(ctx, 5000);
    report("large put to destroyed window", rc);
    rc = ramc_initiator_get(ctx, i, src, 16, 0, 0);
    report("get from destroyed window", rc);
  }
  must(ramc_ctx_barrier(ctx), "barrier");
  return 0;
}

static int detached(void) {
  ramc_target_t t = 0;
  ramc_initiator_t i = 0;
  if (rank == 1) {
    must(ramc_target_create(ctx, win, sizeof(win), 55, 3, &t), "create");
    must(ramc_target_post(ctx, t), "post");
    must(ramc_bb_activate(ctx), "activate");
  }
  must(ramc_ctx_barrier(ctx), "barrier");
  if (rank == 0) {
    report("attach with wrong tag",
           ramc_initiator_attach(ctx, 1, 56, 3, 0, &i));
    report("attach with wrong tag, waiting",
           ramc_initiator_attach(ctx, 1, 56, 3, 200, &i));
    report("attach to rank 7", ramc_initiator_attach(ctx, 7, 55, 3, 0, &i));
    must(ramc_initiator_attach(ctx, 1, 55, 3, 10000, &i), "attach");
    unsigned char src[8192] = {0};
    report("zero-length put", ramc_initiator_put(ctx, i, src, 0, 0, 0));
    report("put past the end",
           ramc_initiator_put(ctx, i, src, 16, sizeof(win) - 8, 0));
    report("put with huge offset",
           ramc_initiator_put(ctx, i, src, 1, (size_t)-1, 0));
    report("get past the end",
           ramc_initiator_get(ctx, i, src, sizeof(win) + 1, 0, 0));
    report("put", ramc_initiator_put(ctx, i, src, 16, 0, 0));
    report("detach", ramc_initiator_detach(ctx, i));
    report("put after detach", ramc_initiator_put(ctx, i, src, 16, 0, 0));
    int rel;
    report("status after detach", ramc_initiator_check(ctx, i, &rel));
    report("detach again", ramc_initiator_detach(ctx, i));
  } else {
    must(ramc_target_wait(ctx, t, 1, 10000), "wait");
    report("extra operations", ramc_target_test(ctx, t, 1));
  }
  must(ramc_ctx_barrier(ctx), "barrier");
  return 0;
}

static int dead_peer(void) {
  ramc_target_t t = 0;
  ramc_initiator_t i = 0;
  /* Both expose a window and attach to the other's. */
  must(ramc_target_create(ctx, win, sizeof(win), 9, 3, &t), "create");
  must(ramc_target_post(ctx, t), "post");
  must(ramc_bb_activate(ctx), "activate");
  must(ramc_initiator_attach(ctx, 1 - rank, 9, 3, 10000, &i), "attach");
  must(ramc_bb_wait_attaches(ctx, 1, 10000), "attaches");
  must(ramc_ctx_barrier(ctx), "barrier");
  if (rank == 1) {
    /* Leave: endpoint and registrations go away, the process exits. */
    ramc_ctx_destroy(ctx);
    exit(0);
  }
  sleep(1);
  double t0 = now();
  int rc = ramc_target_wait(ctx, t, 1, 1500);
  printf("rank 0: wait for a put from the dead peer: rc=%d within deadline=%s "
         "%s\n",
         rc, now() - t0 < 20 ? "yes" : "no", ramc_ctx_error(ctx));
  t0 = now();
  ramc_ctx_set_default_timeout(ctx, 1500);
  int rel;
  rc = ramc_initiator_check(ctx, i, &rel);
  printf("rank 0: status of the dead peer: rc=%d within deadline=%s %s\n", rc,
         now() - t0 < 20 ? "yes" : "no", ramc_ctx_error(ctx));
  unsigned char src[4096] = {0};
  t0 = now();
  rc = ramc_initiator_put(ctx, i, src, sizeof(src), 0, 0);
  if (rc == RAMC_SUCCESS)
    rc = ramc_ctx_wait_puts(ctx, 1500);
  printf("rank 0: put to the dead peer: rc=%d within deadline=%s %s\n", rc,
         now() - t0 < 20 ? "yes" : "no", ramc_ctx_error(ctx));
  t0 = now();
  rc = ramc_ctx_barrier(ctx);
  printf("rank 0: barrier with the dead peer: rc=%d within deadline=%s %s\n",
         rc, now() - t0 < 20 ? "yes" : "no", ramc_ctx_error(ctx));
  fflush(stdout);
  return 0;
}

int main(int argc, char **argv) {
  const char *scenario = argc > 1 ? argv[1] : "";
  char err[1024];
  if (ramc_ctx_create(NULL, &ctx, err, sizeof(err)) != RAMC_SUCCESS) {
    fprintf(stderr, "ramc_ctx_create: %s\n", err);
    return 1;
  }
  rank = ramc_ctx_rank(ctx);
  if (ramc_ctx_size(ctx) != 2) {
    fprintf(stderr, "ramc-misuse needs exactly 2 processes\n");
    return 1;
  }
  int rc = 1;
  if (!strcmp(scenario, "destroyed"))
    rc = destroyed();
  else if (!strcmp(scenario, "detached"))
    rc = detached();
  else if (!strcmp(scenario, "dead-peer"))
    rc = dead_peer();
  else
    fprintf(stderr, "unknown scenario '%s'\n", scenario);
  ramc_ctx_destroy(ctx);
  return rc;
}
