/* Scaffolding shared by the simulated-RAMC test programs: the context, the
 * rank, simulated time (SMPI serves clock_gettime from simulated clocks)
 * and a check that stops the rank with the context's error. */
#ifndef RAMC_SIM_TEST_COMMON_H
#define RAMC_SIM_TEST_COMMON_H

#include "ramc/ramc_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static ramc_ctx_t *ctx;
static int rank;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void must(int rc, const char *what) {
  if (rc != RAMC_SUCCESS) {
    fprintf(stderr, "rank %d: %s: %s\n", rank, what, ramc_ctx_error(ctx));
    exit(1);
  }
}

#endif
