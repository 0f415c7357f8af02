/* ramc-stress: many concurrent initiators and windows, RAMC 0.5 API.
 *
 * Every rank exposes W windows and writes into every window of every rank
 * (itself included) for I epochs, with relaxed synchronization: an initiator
 * puts into a window only when its status equals the epoch it expects; the
 * target waits for exactly one put per rank, checks every byte, checks that
 * nothing more arrived, closes the window (even status), checks again that
 * nothing arrives while it is closed, and reopens it for the next epoch.
 * Message sizes rotate through inject-sized and larger puts. */
#include "ramc_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const size_t kSizes[] = {1, 8, 200, 4096, 70000};
#define NSIZES (sizeof(kSizes) / sizeof(kSizes[0]))

static unsigned char pattern(int src, int dst, int win, int iter, size_t i) {
  return (unsigned char)(src * 131 + dst * 31 + win * 7 + iter * 13 + i * 3 +
                         1);
}

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "rank %d: FAIL line %d: ", rank, __LINE__);              \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, " [%s]\n", ramc_last_error());                           \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  int W = argc > 1 ? atoi(argv[1]) : 3;
  int I = argc > 2 ? atoi(argv[2]) : 20;
  int rank = -1;
  CHECK(ramc_init() == RAMC_SUCCESS, "ramc_init");
  rank = ramc_get_rank();
  int n = ramc_get_numranks();
  size_t maxs = kSizes[NSIZES - 1];
  size_t winlen = maxs * (size_t)n;

  struct ramc_target_win_info_s *tw = calloc(W, sizeof(*tw));
  unsigned char **bufs = calloc(W, sizeof(*bufs));
  for (int w = 0; w < W; ++w) {
    bufs[w] = calloc(1, winlen);
    CHECK(ramc_tgt_create_window(bufs[w], winlen, 100 + w, 3, &tw[w]) ==
              RAMC_SUCCESS,
          "create window %d", w);
    CHECK(ramc_tgt_post_window(&tw[w]) == RAMC_SUCCESS, "post %d", w);
  }
  CHECK(ramc_tgt_activate_bb() == RAMC_SUCCESS, "activate");

  /* Attach to every window of every rank. */
  struct ramc_init_win_info_s *iw = calloc((size_t)n * W, sizeof(*iw));
  for (int r = 0; r < n; ++r)
    for (int w = 0; w < W; ++w) {
      int rc;
      while ((rc = ramc_init_check_bb_status(r, 100 + w)) == RAMC_FAILURE)
        ;
      CHECK(rc == RAMC_SUCCESS, "check bb of %d tag %d", r, 100 + w);
      CHECK(ramc_init_get_bb_posting(r, 3, &iw[r * W + w]) == RAMC_SUCCESS,
            "attach to %d/%d", r, w);
      CHECK(iw[r * W + w].tag == (uint64_t)(100 + w), "attached tag");
    }
  CHECK(ramc_tgt_await_bb_reads((uint64_t)n * W) == RAMC_SUCCESS,
        "await attaches");
  CHECK(ramc_tgt_test_bb_reads(1) == RAMC_FAILURE, "extra attach counted");
  CHECK(ramc_barrier_linear() == RAMC_SUCCESS, "barrier");
  CHECK(ramc_tgt_deactivate_bb() == RAMC_SUCCESS, "deactivate");

  unsigned char *src = malloc(maxs);
  for (int it = 0; it < I; ++it) {
    size_t sz = kSizes[it % NSIZES];
    /* Initiator part: put into every window whose epoch has opened, in
     * whatever order they open. */
    int remaining = n * W;
    char *done = calloc((size_t)n * W, 1);
    while (remaining > 0) {
      for (int k = 0; k < n * W; ++k) {
        if (done[k])
          continue;
        int r = k / W, w = k % W;
        int rc = ramc_init_check_win_status(&iw[k]);
        if (rc == RAMC_TARGET_BEHIND)
          continue;
        CHECK(rc == RAMC_SUCCESS, "status of %d/%d is ahead (rc %d)", r, w, rc);
        for (size_t i = 0; i < sz; ++i)
          src[i] = pattern(rank, r, w, it, i);
        CHECK(ramc_put(src, sz, &iw[k], (size_t)rank * maxs) == RAMC_SUCCESS,
              "put to %d/%d", r, w);
        ramc_init_increment_status(&iw[k], 2);
        done[k] = 1;
        --remaining;
      }
      /* Target part: serve our windows while we wait. */
      for (int w = 0; w < W; ++w) {
        if (tw[w].status_val != 3 + 2 * (uint64_t)it)
          continue;
        if (ramc_tgt_test_win_ops(&tw[w], (uint64_t)n) != RAMC_SUCCESS)
          continue;
        for (int s = 0; s < n; ++s)
          for (size_t i = 0; i < sz; ++i)
            CHECK(bufs[w][(size_t)s * maxs + i] == pattern(s, rank, w, it, i),
                  "window %d byte %zu from %d in epoch %d", w, i, s, it);
        CHECK(ramc_tgt_test_win_ops(&tw[w], 1) == RAMC_FAILURE,
              "extra arrival in window %d epoch %d", w, it);
        ramc_tgt_increment_win_status(&tw[w], 1); /* closed */
        memset(bufs[w], 0, winlen);
      }
    }
    free(done);
    /* Finish serving this epoch, then check the closed windows stay quiet. */
    for (int w = 0; w < W; ++w) {
      if (tw[w].status_val == 3 + 2 * (uint64_t)it) {
        CHECK(ramc_tgt_await_win_ops(&tw[w], (uint64_t)n) == RAMC_SUCCESS,
              "await window %d epoch %d", w, it);
        for (int s = 0; s < n; ++s)
          for (size_t i = 0; i < sz; ++i)
            CHECK(bufs[w][(size_t)s * maxs + i] == pattern(s, rank, w, it, i),
                  "window %d byte %zu from %d in epoch %d", w, i, s, it);
        ramc_tgt_increment_win_status(&tw[w], 1);
        memset(bufs[w], 0, winlen);
      }
    }
    if (it % 5 == 4)
      usleep(2000);
    for (int w = 0; w < W; ++w) {
      CHECK(ramc_tgt_test_win_ops(&tw[w], 1) == RAMC_FAILURE,
            "arrival in closed window %d after epoch %d", w, it);
      for (size_t i = 0; i < winlen; ++i)
        CHECK(bufs[w][i] == 0, "closed window %d written at %zu", w, i);
      ramc_tgt_increment_win_status(&tw[w], 1); /* open the next epoch */
    }
  }
  CHECK(ramc_await_all_puts() == RAMC_SUCCESS, "await puts");
  CHECK(ramc_barrier_binary() == RAMC_SUCCESS, "final barrier");
  for (int w = 0; w < W; ++w) {
    CHECK(ramc_tgt_test_win_ops(&tw[w], 1) == RAMC_FAILURE, "late arrival");
    CHECK(ramc_tgt_destroy_window(&tw[w]) == RAMC_SUCCESS, "destroy %d", w);
    free(bufs[w]);
  }
  if (rank == 0)
    printf("ramc-stress: PASS ranks=%d windows=%d epochs=%d %s\n", n, W, I,
           ramc_describe_transport());
  free(src);
  free(iw);
  free(tw);
  free(bufs);
  CHECK(ramc_finalize() == RAMC_SUCCESS, "finalize");
  return 0;
}
