/* ramc-mixed: puts, atomic increments and gets mixed, from every rank into
 * every rank (itself included) at once, RAMC 0.5 API.
 *
 * Each rank exposes one window:
 *   word 0            a counter every rank increments once per round
 *   word 1 + s        a counter only rank s increments, once per round
 *   read-only area    bytes the owner wrote before posting; gets read them
 *   slot (s, k)       where rank s puts its payload of round k
 *   sequence word s   rank s puts 1, 2, 3, ... into it, non-blocking
 *   scatter (s, k, j) where rank s puts the j-th small piece of round k
 * In round k every rank, for every target, puts a payload (sizes rotate
 * through inline-, inject- and larger-than-inject sizes, blocking and not),
 * increments the shared counter and its own, and gets a stretch of the
 * read-only area: puts alternating with atomics on the same target, from
 * several initiators at once. Then, for all targets in turn, SEQ
 * non-blocking 8-byte puts of the next numbers into its sequence word and
 * SEQ non-blocking puts of 1-700 bytes into its scatter pieces: runs of
 * small puts to several peers at once, which RAMC aggregates into one
 * message per peer (docs/ramc.md); the sequence word must end at the last
 * number, whatever the aggregation did. Each target then waits for exactly
 * (3 + 2 SEQ) * ranks * rounds operations, checks every byte of every slot
 * and piece, the counters (ranks * rounds, and rounds per initiator) and
 * sequence words (SEQ * rounds), and that nothing more arrived; after a
 * barrier every initiator reads its slots and the counters back with gets
 * and checks them again. Any difference is printed (which bytes, what
 * arrived, what was expected) and the run fails. */
#include "ramc_api.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const size_t kSizes[] = {256, 8, 1000, 256, 5000, 64};
#define NSIZES (sizeof(kSizes) / sizeof(kSizes[0]))
#define SLOT 5008   /* the largest size, rounded up to 16 */
#define RO_LEN 4096 /* the read-only area */
#define SEQ 8       /* sequence and scatter puts per target and round */
#define SCAT 704    /* a scatter piece's room */

static int rank = -1;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "ramc-mixed: rank %d: FAIL line %d: ", rank, __LINE__);  \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, " [%s]\n", ramc_last_error());                           \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static size_t putSize(int src, int round) {
  return kSizes[(size_t)(src + round) % NSIZES];
}

static unsigned char payload(int src, int dst, int round, size_t i) {
  return (unsigned char)(src * 131 + dst * 31 + round * 17 + i * 7 + 0x5a);
}

static size_t pieceSize(int src, int round, int j) {
  return 1 + (size_t)(j * 97 + round * 13 + src) % 700;
}

static unsigned char piece(int src, int dst, int round, int j, size_t i) {
  return (unsigned char)(src * 29 + dst * 53 + round * 7 + j * 41 + i * 3 + 1);
}

static unsigned char readOnly(int owner, size_t i) {
  return (unsigned char)(owner * 73 + i * 11 + 3);
}

/* Compares n received bytes with what should have arrived; on a difference
 * prints the first one, the first 16 bytes of both, and how many differ. */
static int sameBytes(const unsigned char *got, const unsigned char *want,
                     size_t n, const char *what) {
  size_t first = n, bad = 0;
  for (size_t i = 0; i < n; ++i)
    if (got[i] != want[i]) {
      if (first == n)
        first = i;
      ++bad;
    }
  if (!bad)
    return 1;
  fprintf(stderr,
          "ramc-mixed: rank %d: %s: %zu of %zu bytes differ, first at byte "
          "%zu\n  got ",
          rank, what, bad, n, first);
  for (size_t i = 0; i < 16 && i < n; ++i)
    fprintf(stderr, " %02x", got[i]);
  fprintf(stderr, "\n  want");
  for (size_t i = 0; i < 16 && i < n; ++i)
    fprintf(stderr, " %02x", want[i]);
  fprintf(stderr, "\n");
  return 0;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 24;
  CHECK(ramc_init() == RAMC_SUCCESS, "ramc_init");
  rank = ramc_get_rank();
  int n = ramc_get_numranks();
  size_t counters = 8 * (size_t)(n + 1);
  size_t roOff = (counters + 63) / 64 * 64;
  size_t slotsOff = roOff + RO_LEN;
  size_t seqOff = slotsOff + (size_t)n * rounds * SLOT;
  size_t scatOff = seqOff + 8 * (size_t)n;
  size_t winLen = scatOff + (size_t)n * rounds * SEQ * SCAT;
#define SLOT_OFF(src, round)                                                   \
  (slotsOff + ((size_t)(src)*rounds + (round)) * SLOT)
#define PIECE_OFF(src, round, j)                                               \
  (scatOff + (((size_t)(src)*rounds + (round)) * SEQ + (j)) * SCAT)

  unsigned char *win = calloc(1, winLen);
  CHECK(win, "out of memory");
  for (size_t i = 0; i < RO_LEN; ++i)
    win[roOff + i] = readOnly(rank, i);
  struct ramc_target_win_info_s tw;
  CHECK(ramc_tgt_create_window(win, winLen, 42, 3, &tw) == RAMC_SUCCESS,
        "create window");
  CHECK(ramc_tgt_post_window(&tw) == RAMC_SUCCESS, "post");
  CHECK(ramc_tgt_activate_bb() == RAMC_SUCCESS, "activate");

  struct ramc_init_win_info_s *iw = calloc((size_t)n, sizeof(*iw));
  for (int t = 0; t < n; ++t) {
    int rc;
    while ((rc = ramc_init_check_bb_status(t, 42)) == RAMC_FAILURE)
      ;
    CHECK(rc == RAMC_SUCCESS, "board of rank %d", t);
    CHECK(ramc_init_get_bb_posting(t, 3, &iw[t]) == RAMC_SUCCESS,
          "attach to rank %d", t);
  }
  CHECK(ramc_tgt_await_bb_reads((uint64_t)n) == RAMC_SUCCESS, "attaches");
  CHECK(ramc_barrier_linear() == RAMC_SUCCESS, "barrier");

  /* One source buffer per target, so that non-blocking puts to different
   * targets never share one; rewritten only after ramc_await_all_puts. */
  unsigned char *src = malloc((size_t)n * SLOT);
  unsigned char *want = malloc(SLOT > RO_LEN ? SLOT : RO_LEN);
  unsigned char *back = malloc(SLOT > RO_LEN ? SLOT : RO_LEN);
  /* Sources of the sequence and scatter puts, per target: untouched until
   * the round's ramc_await_all_puts. */
  uint64_t *seqSrc = malloc((size_t)n * SEQ * sizeof(uint64_t));
  unsigned char *scatSrc = malloc((size_t)n * SEQ * SCAT);
  CHECK(src && want && back && seqSrc && scatSrc, "out of memory");
  for (int k = 0; k < rounds; ++k) {
    int nonBlocking = k % 3 == 2;
    size_t sz = putSize(rank, k);
    for (int t = 0; t < n; ++t) {
      unsigned char *s = src + (size_t)t * SLOT;
      for (size_t i = 0; i < sz; ++i)
        s[i] = payload(rank, t, k, i);
      size_t off = SLOT_OFF(rank, k);
      int rc = nonBlocking ? ramc_put_nb(s, sz, &iw[t], off)
                           : ramc_put(s, sz, &iw[t], off);
      CHECK(rc == RAMC_SUCCESS, "put of %zu bytes to rank %d, round %d", sz, t,
            k);
      /* A blocking put's source may be reused at once. */
      if (!nonBlocking)
        memset(s, 0xee, sz);
      CHECK(ramc_atomic_inc(&iw[t], 0) == RAMC_SUCCESS,
            "shared increment at rank %d, round %d", t, k);
      CHECK(ramc_atomic_inc(&iw[t], 8 * (size_t)(1 + rank)) == RAMC_SUCCESS,
            "own increment at rank %d, round %d", t, k);
      size_t glen = 64 + (size_t)(k * 509 + rank * 97) % (RO_LEN - 64);
      size_t goff = (size_t)(k * 131 + t * 7) % (RO_LEN - glen + 1);
      memset(back, 0, glen);
      CHECK(ramc_get(back, glen, &iw[t], roOff + goff) == RAMC_SUCCESS,
            "get from rank %d, round %d", t, k);
      for (size_t i = 0; i < glen; ++i)
        want[i] = readOnly(t, goff + i);
      char what[96];
      snprintf(what, sizeof what,
               "get of %zu bytes at %zu from rank %d, "
               "round %d",
               glen, goff, t, k);
      CHECK(sameBytes(back, want, glen, what), "read-only bytes");
    }
    for (int j = 0; j < SEQ; ++j)
      for (int t = 0; t < n; ++t) {
        uint64_t *v = &seqSrc[(size_t)t * SEQ + j];
        *v = (uint64_t)k * SEQ + j + 1;
        CHECK(ramc_put_nb(v, 8, &iw[t], seqOff + 8 * (size_t)rank) ==
                  RAMC_SUCCESS,
              "sequence put %d to rank %d, round %d", j, t, k);
        unsigned char *p = scatSrc + ((size_t)t * SEQ + j) * SCAT;
        size_t pz = pieceSize(rank, k, j);
        for (size_t i = 0; i < pz; ++i)
          p[i] = piece(rank, t, k, j, i);
        CHECK(ramc_put_nb(p, pz, &iw[t], PIECE_OFF(rank, k, j)) == RAMC_SUCCESS,
              "scatter put %d of %zu bytes to rank %d, round %d", j, pz, t, k);
      }
    CHECK(ramc_await_all_puts() == RAMC_SUCCESS, "await puts, round %d", k);
  }
  CHECK(ramc_await_all_puts() == RAMC_SUCCESS, "await puts");

  /* Target: exactly one put, two increments, SEQ sequence and SEQ scatter
   * puts per initiator and round. */
  uint64_t ops = (3 + 2 * SEQ) * (uint64_t)n * rounds;
  CHECK(ramc_tgt_await_win_ops(&tw, ops) == RAMC_SUCCESS,
        "await %llu operations", (unsigned long long)ops);
  CHECK(ramc_tgt_test_win_ops(&tw, 1) == RAMC_FAILURE, "extra operations");
  int ok = 1;
  for (int s = 0; s < n; ++s)
    for (int k = 0; k < rounds; ++k) {
      size_t sz = putSize(s, k);
      for (size_t i = 0; i < sz; ++i)
        want[i] = payload(s, rank, k, i);
      char what[96];
      snprintf(what, sizeof what, "put of %zu bytes from rank %d, round %d", sz,
               s, k);
      ok &= sameBytes(win + SLOT_OFF(s, k), want, sz, what);
      for (int j = 0; j < SEQ; ++j) {
        size_t pz = pieceSize(s, k, j);
        for (size_t i = 0; i < pz; ++i)
          want[i] = piece(s, rank, k, j, i);
        snprintf(what, sizeof what,
                 "scatter put %d of %zu bytes from rank %d, round %d", j, pz, s,
                 k);
        ok &= sameBytes(win + PIECE_OFF(s, k, j), want, pz, what);
      }
    }
  uint64_t c;
  memcpy(&c, win, 8);
  if (c != (uint64_t)n * rounds) {
    fprintf(stderr,
            "ramc-mixed: rank %d: the shared counter is %llu, not %llu\n", rank,
            (unsigned long long)c, (unsigned long long)n * rounds);
    ok = 0;
  }
  for (int s = 0; s < n; ++s) {
    memcpy(&c, win + seqOff + 8 * (size_t)s, 8);
    if (c != (uint64_t)rounds * SEQ) {
      fprintf(stderr,
              "ramc-mixed: rank %d: rank %d's sequence word is %llu, not the "
              "last number put, %llu\n",
              rank, s, (unsigned long long)c, (unsigned long long)rounds * SEQ);
      ok = 0;
    }
  }
  for (int s = 0; s < n; ++s) {
    memcpy(&c, win + 8 * (size_t)(1 + s), 8);
    if (c != (uint64_t)rounds) {
      fprintf(stderr,
              "ramc-mixed: rank %d: rank %d's counter is %llu, not %d\n", rank,
              s, (unsigned long long)c, rounds);
      ok = 0;
    }
  }
  CHECK(ok, "window contents or counters (see above)");
  for (size_t i = 0; i < RO_LEN; ++i)
    CHECK(win[roOff + i] == readOnly(rank, i), "read-only byte %zu written", i);
  CHECK(ramc_barrier_binary() == RAMC_SUCCESS, "barrier");

  /* Initiator: read everything back. */
  for (int t = 0; t < n; ++t) {
    uint64_t c[2] = {0, 0};
    CHECK(ramc_get(&c[0], 8, &iw[t], 0) == RAMC_SUCCESS, "get counter");
    CHECK(ramc_get(&c[1], 8, &iw[t], 8 * (size_t)(1 + rank)) == RAMC_SUCCESS,
          "get counter");
    CHECK(c[0] == (uint64_t)n * rounds && c[1] == (uint64_t)rounds,
          "rank %d's counters read back as %llu and %llu", t,
          (unsigned long long)c[0], (unsigned long long)c[1]);
    for (int k = 0; k < rounds; ++k) {
      size_t sz = putSize(rank, k);
      memset(back, 0, sz);
      CHECK(ramc_get(back, sz, &iw[t], SLOT_OFF(rank, k)) == RAMC_SUCCESS,
            "get slot");
      for (size_t i = 0; i < sz; ++i)
        want[i] = payload(rank, t, k, i);
      char what[96];
      snprintf(what, sizeof what, "read back of round %d from rank %d", k, t);
      CHECK(sameBytes(back, want, sz, what), "slot contents");
    }
  }
  CHECK(ramc_barrier_binary() == RAMC_SUCCESS, "final barrier");
  CHECK(ramc_tgt_destroy_window(&tw) == RAMC_SUCCESS, "destroy");
  printf("ramc-mixed: rank %d PASS ranks=%d rounds=%d %s\n", rank, n, rounds,
         ramc_describe_transport());
  free(src);
  free(seqSrc);
  free(scatSrc);
  free(want);
  free(back);
  free(iw);
  free(win);
  CHECK(ramc_finalize() == RAMC_SUCCESS, "finalize");
  return 0;
}
