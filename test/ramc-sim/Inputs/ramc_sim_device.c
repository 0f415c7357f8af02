/* ramc-sim-device: a window and a put source in (simulated) GPU memory
 * charge the device legs GPU-aware MPI would: the initiator its send leg
 * before the put, the target its receive leg when it sees the arrival.
 *
 *   ramc-sim-device host|device BYTES
 *
 * Rank 1 exposes BYTES of host or device memory, rank 0 puts BYTES from host
 * or device memory after a barrier; rank 0 prints when its blocking put
 * returned ("put_return S"), rank 1 when it saw the arrival ("put_arrival
 * S"), in simulated seconds. The program is built in skeleton mode against
 * liborrery-sim, whose cudaMalloc hands out simulated device memory. */
#include "ramc/ramc_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* From the CUDA runtime (liborrery-sim in skeleton mode); no CUDA header
 * needed for one call. */
int cudaMalloc(void **ptr, size_t size);

#include "sim_test_common.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: ramc-sim-device host|device BYTES\n");
    return 1;
  }
  int device = !strcmp(argv[1], "device");
  size_t n = (size_t)atol(argv[2]);
  char err[1024];
  if (ramc_ctx_create(NULL, &ctx, err, sizeof(err))) {
    fprintf(stderr, "ramc_ctx_create: %s\n", err);
    return 1;
  }
  rank = ramc_ctx_rank(ctx);
  void *buf = NULL;
  if (device) {
    if (cudaMalloc(&buf, n) != 0) {
      fprintf(stderr, "rank %d: cudaMalloc failed\n", rank);
      return 1;
    }
  } else {
    buf = calloc(1, n);
  }
  ramc_target_t t;
  ramc_initiator_t i;
  if (rank == 1) {
    must(ramc_target_create(ctx, buf, n, 4, 3, &t), "create");
    must(ramc_target_post(ctx, t), "post");
    must(ramc_bb_activate(ctx), "activate");
  } else {
    must(ramc_initiator_attach(ctx, 1, 4, 3, RAMC_TIMEOUT_DEFAULT, &i),
         "attach");
  }
  must(ramc_ctx_barrier(ctx), "barrier");
  double t0 = now();
  if (rank == 0) {
    must(ramc_initiator_put(ctx, i, buf, n, 0, 0), "put");
    printf("put_return %.12g\n", now() - t0);
  } else {
    must(ramc_target_wait(ctx, t, 1, RAMC_TIMEOUT_DEFAULT), "wait");
    printf("put_arrival %.12g\n", now() - t0);
  }
  fflush(stdout);
  must(ramc_ctx_barrier(ctx), "barrier");
  ramc_ctx_destroy(ctx);
  return 0;
}
