/* ramc-bbfuzz: the bulletin-board/attach protocol under random operation
 * orders and delays (context C API).
 *
 * Per round, every rank derives the same plan from the round's seed: which
 * windows each rank exposes (tags, lengths) and which ranks attach to which
 * windows. How each rank carries the plan out - the order of posts and
 * attaches, when the board is activated, random delays, and a decoy window
 * posted and withdrawn over and over while others read the board - comes
 * from a per-rank random stream. Every attach must find the right window
 * (tag and length), every target must count exactly its attaches and one put
 * per attacher, and every put's bytes must arrive. */
#include "ramc/ramc_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXWIN 6

static unsigned long long lcg(unsigned long long *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 33;
}

static int rank;
#define CHECK(ctx, cond, ...)                                                  \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "rank %d: FAIL line %d: ", rank, __LINE__);              \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, " [%s]\n", ramc_ctx_error(ctx));                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

struct plan {
  int nwin[64];
  unsigned long long tag[64][MAXWIN];
  size_t len[64][MAXWIN];
  unsigned char attach[64][64][MAXWIN]; /* attach[initiator][target][w] */
};

static void make_plan(struct plan *p, int n, int round) {
  unsigned long long s = 0x9e3779b9ull * (unsigned long long)(round + 1);
  memset(p, 0, sizeof(*p));
  for (int t = 0; t < n; ++t) {
    p->nwin[t] = 1 + (int)(lcg(&s) % MAXWIN);
    for (int w = 0; w < p->nwin[t]; ++w) {
      p->tag[t][w] = (unsigned long long)round * 1000 + t * 10 + w + 1;
      p->len[t][w] = 64 * (size_t)n + 8 * (lcg(&s) % 50);
    }
  }
  for (int i = 0; i < n; ++i)
    for (int t = 0; t < n; ++t)
      for (int w = 0; w < p->nwin[t]; ++w)
        p->attach[i][t][w] = lcg(&s) % 3 != 0;
}

static void jitter(unsigned long long *s) {
  unsigned r = (unsigned)(lcg(s) % 8);
  if (r < 3)
    usleep(r * 150);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 10;
  ramc_ctx_t *ctx = NULL;
  char err[1024];
  if (ramc_ctx_create(NULL, &ctx, err, sizeof(err)) != RAMC_SUCCESS) {
    fprintf(stderr, "ramc_ctx_create: %s\n", err);
    return 1;
  }
  rank = ramc_ctx_rank(ctx);
  int n = ramc_ctx_size(ctx);
  CHECK(ctx, n <= 64, "at most 64 ranks");
  unsigned long long rs = 1234567ull + 7919ull * (unsigned long long)rank;
  struct plan *p = malloc(sizeof(*p));
  unsigned char decoy[64];
  long attaches_total = 0, puts_total = 0;

  for (int round = 0; round < rounds; ++round) {
    make_plan(p, n, round);
    int nw = p->nwin[rank];
    unsigned char *bufs[MAXWIN];
    ramc_target_t tw[MAXWIN];
    uint64_t expect_attach = 0, expect_ops[MAXWIN];
    for (int w = 0; w < nw; ++w) {
      bufs[w] = calloc(1, p->len[rank][w]);
      CHECK(ctx,
            ramc_target_create(ctx, bufs[w], p->len[rank][w], p->tag[rank][w],
                               3, &tw[w]) == RAMC_SUCCESS,
            "create");
      expect_ops[w] = 0;
      for (int i = 0; i < n; ++i)
        expect_ops[w] += p->attach[i][rank][w];
      expect_attach += expect_ops[w];
    }
    /* Post in random order, activating the board at a random point. */
    int order[MAXWIN];
    for (int w = 0; w < nw; ++w)
      order[w] = w;
    for (int w = nw - 1; w > 0; --w) {
      int j = (int)(lcg(&rs) % (unsigned)(w + 1));
      int t = order[w];
      order[w] = order[j];
      order[j] = t;
    }
    int activate_at = (int)(lcg(&rs) % (unsigned)(nw + 1));
    for (int k = 0; k <= nw; ++k) {
      if (k == activate_at)
        CHECK(ctx, ramc_bb_activate(ctx) == RAMC_SUCCESS, "activate");
      if (k < nw) {
        jitter(&rs);
        CHECK(ctx, ramc_target_post(ctx, tw[order[k]]) == RAMC_SUCCESS, "post");
      }
    }
    ramc_target_t dw;
    CHECK(ctx,
          ramc_target_create(ctx, decoy, sizeof(decoy), 999999, 3, &dw) ==
              RAMC_SUCCESS,
          "decoy");

    /* Attach in random order with random delays; serve our board between
     * attaches by toggling the decoy posting. */
    int pairs = 0;
    int ptarget[64 * MAXWIN], pwin[64 * MAXWIN];
    for (int t = 0; t < n; ++t)
      for (int w = 0; w < p->nwin[t]; ++w)
        if (p->attach[rank][t][w]) {
          ptarget[pairs] = t;
          pwin[pairs] = w;
          ++pairs;
        }
    for (int k = pairs - 1; k > 0; --k) {
      int j = (int)(lcg(&rs) % (unsigned)(k + 1));
      int a = ptarget[k], b = pwin[k];
      ptarget[k] = ptarget[j];
      pwin[k] = pwin[j];
      ptarget[j] = a;
      pwin[j] = b;
    }
    ramc_initiator_t *iw = malloc(sizeof(*iw) * (pairs ? pairs : 1));
    for (int k = 0; k < pairs; ++k) {
      int t = ptarget[k], w = pwin[k];
      if (lcg(&rs) & 1) {
        ramc_target_post(ctx, dw);
        ramc_target_unpost(ctx, dw);
      }
      jitter(&rs);
      int rc;
      /* Short attempts, so that our own board keeps changing meanwhile. */
      while ((rc = ramc_initiator_attach(ctx, t, p->tag[t][w], 3, 2, &iw[k])) ==
                 RAMC_TIMEOUT ||
             rc == RAMC_FAILURE) {
        ramc_target_post(ctx, dw);
        ramc_target_unpost(ctx, dw);
      }
      CHECK(ctx, rc == RAMC_SUCCESS, "attach to %d tag %llu", t, p->tag[t][w]);
      int peer;
      uint64_t tag;
      size_t len;
      ramc_initiator_info(ctx, iw[k], &peer, &tag, &len);
      CHECK(ctx, peer == t && tag == p->tag[t][w] && len == p->len[t][w],
            "attached to the wrong window: rank %d tag %llu len %zu", peer,
            (unsigned long long)tag, len);
      unsigned char v[64];
      memset(v, (unsigned char)(rank * 7 + round + w + 1), sizeof(v));
      CHECK(ctx,
            ramc_initiator_put(ctx, iw[k], v, sizeof(v), 64 * (size_t)rank,
                               RAMC_NONBLOCKING) == RAMC_SUCCESS,
            "put");
      ++attaches_total;
      ++puts_total;
    }
    CHECK(ctx, ramc_ctx_wait_puts(ctx, RAMC_TIMEOUT_DEFAULT) == RAMC_SUCCESS,
          "wait puts");
    /* Keep changing our board while others still attach. */
    while (ramc_bb_test_attaches(ctx, expect_attach) == RAMC_FAILURE) {
      ramc_target_post(ctx, dw);
      ramc_target_unpost(ctx, dw);
    }
    CHECK(ctx, ramc_bb_test_attaches(ctx, 1) == RAMC_FAILURE,
          "more attaches than planned");
    for (int w = 0; w < nw; ++w) {
      CHECK(ctx,
            ramc_target_wait(ctx, tw[w], expect_ops[w], RAMC_TIMEOUT_DEFAULT) ==
                RAMC_SUCCESS,
            "wait ops");
      CHECK(ctx, ramc_target_test(ctx, tw[w], 1) == RAMC_FAILURE, "extra op");
      for (int i = 0; i < n; ++i)
        for (int b = 0; b < 64; ++b) {
          unsigned char want = p->attach[i][rank][w]
                                   ? (unsigned char)(i * 7 + round + w + 1)
                                   : 0;
          CHECK(ctx, bufs[w][64 * i + b] == want,
                "window %d byte %d from rank %d", w, b, i);
        }
    }
    CHECK(ctx, ramc_ctx_barrier(ctx) == RAMC_SUCCESS, "barrier");
    ramc_bb_deactivate(ctx);
    for (int k = 0; k < pairs; ++k)
      CHECK(ctx, ramc_initiator_detach(ctx, iw[k]) == RAMC_SUCCESS, "detach");
    free(iw);
    for (int w = 0; w < nw; ++w) {
      CHECK(ctx, ramc_target_destroy(ctx, tw[w]) == RAMC_SUCCESS, "destroy");
      free(bufs[w]);
    }
    ramc_target_destroy(ctx, dw);
    CHECK(ctx, ramc_ctx_barrier(ctx) == RAMC_SUCCESS, "barrier");
  }
  printf("ramc-bbfuzz: rank %d PASS rounds=%d attaches=%ld puts=%ld\n", rank,
         rounds, attaches_total, puts_total);
  free(p);
  ramc_ctx_destroy(ctx);
  return 0;
}
