/* ramc-bw: RAMC put bandwidth and latency between two processes.
 *
 *   mpirun -np 2 ramc-bw        (RAMC_PROVIDER / RAMC_NOTIFY pick transport)
 *
 * Bandwidth: rank 0 issues W non-blocking puts of one size into rank 1's
 * window, rank 1 waits for the W arrivals and puts an 8-byte ack into rank
 * 0's window, rank 0 waits for the ack. Latency: ping-pong / 2 with blocking
 * puts, each side waiting for one arrival. Sizes 1 B - 4 MiB. */
#include "bench_common.h"
#include "ramc/ramc_ctx.h"

#include <string.h>

static ramc_ctx_t *ctx;

static void must(int rc, const char *what) {
  if (rc != RAMC_SUCCESS) {
    fprintf(stderr, "ramc-bw rank %d: %s: %s\n", ramc_ctx_rank(ctx), what,
            ramc_ctx_error(ctx));
    exit(1);
  }
}

int main(void) {
  char err[1024];
  if (ramc_ctx_create(NULL, &ctx, err, sizeof(err))) {
    fprintf(stderr, "ramc-bw: %s\n", err);
    return 1;
  }
  int me = ramc_ctx_rank(ctx);
  if (ramc_ctx_size(ctx) != 2) {
    fprintf(stderr, "ramc-bw needs exactly 2 processes\n");
    return 1;
  }
  size_t max = bench_max_size();
  unsigned char *win = calloc(1, max), *src = malloc(max);
  memset(src, 0xab, max);
  ramc_target_t t;
  ramc_initiator_t peer;
  must(ramc_target_create(ctx, win, max, 1, 3, &t), "create");
  must(ramc_target_post(ctx, t), "post");
  must(ramc_bb_activate(ctx), "activate");
  must(ramc_initiator_attach(ctx, 1 - me, 1, 3, RAMC_TIMEOUT_DEFAULT, &peer),
       "attach");
  must(ramc_bb_wait_attaches(ctx, 1, RAMC_TIMEOUT_DEFAULT), "attaches");
  must(ramc_ctx_barrier(ctx), "barrier");
  if (me == 0)
    printf("# ramc-bw: RAMC %s, window %d\n", ramc_ctx_describe(ctx),
           BENCH_WINDOW);

  for (size_t s = bench_min_size(); s <= max; s *= 2) {
    int batches = bench_batches(s);
    double t0 = 0;
    for (int b = 0; b < batches + bench_warmup(s, batches, 1); ++b) {
      if (b == bench_warmup(s, batches, 1))
        t0 = bench_now();
      if (me == 0) {
        for (int k = 0; k < BENCH_WINDOW; ++k)
          must(ramc_initiator_put(ctx, peer, src, s, 0, RAMC_NONBLOCKING),
               "put");
        must(ramc_target_wait(ctx, t, 1, RAMC_TIMEOUT_DEFAULT), "ack");
      } else {
        must(ramc_target_wait(ctx, t, BENCH_WINDOW, RAMC_TIMEOUT_DEFAULT),
             "window");
        must(ramc_initiator_put(ctx, peer, src, 8, 0, 0), "ack put");
      }
    }
    double bw_time = bench_now() - t0;
    must(ramc_ctx_wait_puts(ctx, RAMC_TIMEOUT_DEFAULT), "wait puts");

    int n = bench_pingpongs(s);
    for (int k = 0; k < n + bench_warmup(s, n, 0); ++k) {
      if (k == bench_warmup(s, n, 0))
        t0 = bench_now();
      if (me == 0) {
        must(ramc_initiator_put(ctx, peer, src, s, 0, 0), "ping");
        must(ramc_target_wait(ctx, t, 1, RAMC_TIMEOUT_DEFAULT), "pong");
      } else {
        must(ramc_target_wait(ctx, t, 1, RAMC_TIMEOUT_DEFAULT), "ping");
        must(ramc_initiator_put(ctx, peer, src, s, 0, 0), "pong");
      }
    }
    double lat_time = bench_now() - t0;
    if (me == 0)
      bench_row(s, (double)s * BENCH_WINDOW * batches / bw_time / 1e6,
                lat_time / (2.0 * n) * 1e6);
  }
  must(ramc_ctx_wait_puts(ctx, RAMC_TIMEOUT_DEFAULT), "wait puts");
  must(ramc_ctx_barrier(ctx), "barrier");
  ramc_initiator_detach(ctx, peer);
  ramc_target_destroy(ctx, t);
  ramc_ctx_destroy(ctx);
  free(win);
  free(src);
  return 0;
}
