/* ramc-leak: resources come back. Creates and destroys contexts, windows,
 * attachments and registrations in a loop (single process, or every process
 * under mpirun), and checks that the number of open file descriptors and of
 * memory mappings returns to where it started. Run it under valgrind
 * --leak-check=full to check heap leaks too.
 *
 *   ramc-leak [ROUNDS] */
#include "ramc/ramc_ctx.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int count_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  int n = 0;
  if (!d)
    return -1;
  while (readdir(d))
    ++n;
  closedir(d);
  return n;
}

static int count_maps(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  int n = 0, c;
  if (!f)
    return -1;
  while ((c = fgetc(f)) != EOF)
    n += c == '\n';
  fclose(f);
  return n;
}

static int round_trip(int round) {
  ramc_ctx_t *ctx;
  char err[1024];
  if (ramc_ctx_create(NULL, &ctx, err, sizeof(err))) {
    fprintf(stderr, "round %d: %s\n", round, err);
    return 1;
  }
  int me = ramc_ctx_rank(ctx), n = ramc_ctx_size(ctx);
  int peer = (me + 1) % n;
  static unsigned char bufs[8][8192];
  for (int k = 0; k < 8; ++k) {
    ramc_target_t t;
    ramc_initiator_t i;
    unsigned char src[8192];
    memset(src, k + 1, sizeof(src));
    if (ramc_target_create(ctx, bufs[k], sizeof(bufs[k]), 40 + k, 3, &t) ||
        ramc_target_post(ctx, t) || ramc_bb_activate(ctx) ||
        ramc_initiator_attach(ctx, peer, 40 + k, 3, 10000, &i) ||
        ramc_initiator_put(ctx, i, src, sizeof(src), 0, 0) ||
        ramc_initiator_put(ctx, i, src, 8, 0, 0) ||
        ramc_target_wait(ctx, t, 2, 10000) || ramc_ctx_barrier(ctx) ||
        ramc_initiator_detach(ctx, i) || ramc_target_destroy(ctx, t) ||
        ramc_bb_deactivate(ctx)) {
      fprintf(stderr, "round %d step %d: %s\n", round, k, ramc_ctx_error(ctx));
      return 1;
    }
  }
  /* Leave a window and an attachment alive: destroying the context must
   * release them. */
  ramc_target_t t;
  ramc_initiator_t i;
  if (ramc_target_create(ctx, bufs[0], 64, 99, 3, &t) ||
      ramc_target_post(ctx, t) || ramc_bb_activate(ctx) ||
      ramc_initiator_attach(ctx, peer, 99, 3, 10000, &i) ||
      ramc_ctx_barrier(ctx)) {
    fprintf(stderr, "round %d: %s\n", round, ramc_ctx_error(ctx));
    return 1;
  }
  ramc_ctx_destroy(ctx);
  return 0;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 5;
  /* The first round loads providers and libraries for good. */
  if (round_trip(0))
    return 1;
  int fds = count_fds(), maps = count_maps();
  for (int r = 1; r <= rounds; ++r)
    if (round_trip(r))
      return 1;
  int fds2 = count_fds(), maps2 = count_maps();
  long live = ramc_debug_live_objects();
  /* Mappings are reported only: malloc arenas of provider threads may
   * appear late. Open fds and libfabric objects must come back exactly. */
  int ok = fds == fds2 && live == 0;
  printf("ramc-leak: %d rounds: fds %d -> %d, live libfabric objects %ld, "
         "mappings %d -> %d: %s\n",
         rounds, fds, fds2, live, maps, maps2, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
