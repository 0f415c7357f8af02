/* ramc-runs: runs of large non-blocking puts from every rank into every rank
 * at once, mixed with atomic increments, context API. Where the provider
 * keeps writes to a peer in order, RAMC notifies a run of puts into one
 * window once, with its last put (docs/ramc.md, "Runs of large puts"); this
 * checks that a target never counts an operation before its data is there,
 * that every put is counted exactly once, and that every byte arrives.
 *
 * Each rank exposes one window: word s, which rank s increments once per
 * round, then block (s, k, j), where rank s puts its j-th put of round k
 * (4097-5996 bytes: larger than RAMC aggregates, so each is an RMA write of
 * its own). In round k every rank, for every target in turn, puts RUN
 * blocks in a row (one run, split where RAMC_NOTIFY_RUN is below RUN), or in
 * odd rounds puts them to all targets in turn (runs of one),
 * then increments its word at every target, then waits for its puts.
 * Between rounds, and until everything has arrived, each rank looks at its
 * window's arrival count; whenever it rose, it counts the blocks whose
 * every byte is there and the increments, and fails if the count is larger
 * (an operation counted before it landed). At the end: exactly
 * ranks * rounds * (RUN + 1) operations, nothing more after a barrier, and
 * every byte. */
#include "ramc/ramc_ctx.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUN 20
#define BLK 6000 /* a block's room */
#define TAG 77

static ramc_ctx_t *ctx;
static int rank, n, rounds;
static unsigned char *win;
static size_t blocksOff;
static unsigned char *landed; /* per block: seen complete */
static uint64_t landedBlocks, checks;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "ramc-runs: rank %d: FAIL line %d: ", rank, __LINE__);   \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, " [%s]\n", ramc_ctx_error(ctx));                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static size_t block(int s, int k, int j) {
  return ((size_t)s * rounds + (size_t)k) * RUN + (size_t)j;
}

static size_t putSize(int s, int k, int j) {
  return 4097 + (size_t)(s * 13 + k * 7 + j * 131) % 1900;
}

/* Never 0: a block still zero has not landed. */
static unsigned char byteOf(int s, int t, int k, int j, size_t i) {
  return (unsigned char)(1 + (s * 31 + t * 17 + k * 7 + j * 5 + i) % 255);
}

static int complete(int s, int k, int j) {
  const unsigned char *b = win + blocksOff + block(s, k, j) * BLK;
  size_t sz = putSize(s, k, j);
  for (size_t i = sz; i-- > 0;)
    if (b[i] != byteOf(s, rank, k, j, i))
      return 0;
  return 1;
}

/* Operations whose effect is visible in the window now: complete blocks
 * and increments. */
static uint64_t visible(void) {
  for (int s = 0; s < n; ++s)
    for (int k = 0; k < rounds; ++k)
      for (int j = 0; j < RUN; ++j) {
        size_t b = block(s, k, j);
        if (!landed[b] && complete(s, k, j)) {
          landed[b] = 1;
          ++landedBlocks;
        }
      }
  uint64_t incs = 0;
  for (int s = 0; s < n; ++s) {
    uint64_t w;
    memcpy(&w, win + 8 * (size_t)s, 8);
    incs += w;
  }
  return landedBlocks + incs;
}

/* Looks at the arrival count; when it rose, checks it against what is
 * visible. Returns the count. */
static uint64_t observe(ramc_target_t t, uint64_t *last) {
  uint64_t arrived = 0, consumed = 0;
  CHECK(ramc_target_counts(ctx, t, &arrived, &consumed) == RAMC_SUCCESS,
        "counts");
  if (arrived != *last) {
    uint64_t seen = visible();
    CHECK(arrived <= seen,
          "%llu operations counted, only %llu landed (%llu blocks complete)",
          (unsigned long long)arrived, (unsigned long long)seen,
          (unsigned long long)landedBlocks);
    ++checks;
    *last = arrived;
  }
  return arrived;
}

int main(int argc, char **argv) {
  rounds = argc > 1 ? atoi(argv[1]) : 4;
  char err[1024];
  if (ramc_ctx_create(NULL, &ctx, err, sizeof(err)) != RAMC_SUCCESS) {
    fprintf(stderr, "ramc_ctx_create: %s\n", err);
    return 1;
  }
  rank = ramc_ctx_rank(ctx);
  n = ramc_ctx_size(ctx);
  blocksOff = ((size_t)n * 8 + 63) / 64 * 64;
  size_t nblocks = (size_t)n * rounds * RUN;
  size_t winLen = blocksOff + nblocks * BLK;
  win = calloc(1, winLen);
  landed = calloc(1, nblocks);
  /* Sources: one per target and put of a round, untouched until the
   * round's wait. */
  unsigned char *src = malloc((size_t)n * RUN * BLK);
  CHECK(win && landed && src, "out of memory");

  ramc_target_t t;
  CHECK(ramc_target_create(ctx, win, winLen, TAG, 3, &t) == RAMC_SUCCESS,
        "create");
  CHECK(ramc_target_post(ctx, t) == RAMC_SUCCESS, "post");
  CHECK(ramc_bb_activate(ctx) == RAMC_SUCCESS, "activate");
  ramc_initiator_t *to = calloc((size_t)n, sizeof(*to));
  for (int r = 0; r < n; ++r)
    CHECK(ramc_initiator_attach(ctx, r, TAG, 3, 20000, &to[r]) == RAMC_SUCCESS,
          "attach to rank %d", r);
  CHECK(ramc_bb_wait_attaches(ctx, (uint64_t)n, 20000) == RAMC_SUCCESS,
        "attaches");
  CHECK(ramc_ctx_barrier(ctx) == RAMC_SUCCESS, "barrier");

  uint64_t last = 0;
  for (int k = 0; k < rounds; ++k) {
    for (int i = 0; i < n; ++i) {
      int d = (rank + i) % n;
      for (int j = 0; j < RUN; ++j) {
        unsigned char *p = src + ((size_t)d * RUN + j) * BLK;
        for (size_t b = 0; b < putSize(rank, k, j); ++b)
          p[b] = byteOf(rank, d, k, j, b);
      }
    }
    int interleave = k % 2 == 1;
    for (int a = 0; a < n * RUN; ++a) {
      int i = interleave ? a % n : a / RUN;
      int j = interleave ? a / n : a % RUN;
      int d = (rank + i) % n;
      size_t sz = putSize(rank, k, j);
      CHECK(ramc_initiator_put(ctx, to[d], src + ((size_t)d * RUN + j) * BLK,
                               sz, blocksOff + block(rank, k, j) * BLK,
                               RAMC_NONBLOCKING) == RAMC_SUCCESS,
            "put %d of %zu bytes to rank %d, round %d", j, sz, d, k);
    }
    for (int i = 0; i < n; ++i)
      CHECK(ramc_initiator_atomic_inc(ctx, to[(rank + i) % n],
                                      8 * (size_t)rank) == RAMC_SUCCESS,
            "increment at rank %d, round %d", (rank + i) % n, k);
    CHECK(ramc_ctx_wait_puts(ctx, 60000) == RAMC_SUCCESS, "wait, round %d", k);
    observe(t, &last);
  }
  uint64_t total = (uint64_t)n * rounds * (RUN + 1);
  time_t end = time(NULL) + 60;
  while (observe(t, &last) < total)
    CHECK(time(NULL) < end, "only %llu of %llu operations arrived",
          (unsigned long long)last, (unsigned long long)total);
  CHECK(ramc_ctx_barrier(ctx) == RAMC_SUCCESS, "barrier");
  CHECK(observe(t, &last) == total, "%llu operations arrived, not %llu",
        (unsigned long long)last, (unsigned long long)total);
  CHECK(visible() == total, "%llu of %llu operations landed",
        (unsigned long long)visible(), (unsigned long long)total);
  CHECK(ramc_ctx_barrier(ctx) == RAMC_SUCCESS, "final barrier");
  printf("ramc-runs: rank %d PASS ranks=%d rounds=%d checked=%s %s\n", rank, n,
         rounds, checks ? "yes" : "no", ramc_ctx_describe(ctx));
  fflush(stdout);
  CHECK(ramc_target_destroy(ctx, t) == RAMC_SUCCESS, "destroy");
  free(src);
  free(to);
  free(landed);
  free(win);
  ramc_ctx_destroy(ctx);
  return 0;
}
