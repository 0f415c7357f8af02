/* ramc-mpi-boot: an MPI program that uses RAMC. With RAMC_BOOTSTRAP=mpi the
 * context exchanges addresses over MPI_COMM_WORLD instead of PMIx. Each rank
 * puts its rank into the window of the next rank (a ring) and checks what it
 * got from the previous one. */
#include "ramc/ramc_ctx.h"

#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  ramc_ctx_t *ctx;
  char err[1024];
  if (ramc_ctx_create(NULL, &ctx, err, sizeof(err))) {
    fprintf(stderr, "rank %d: %s\n", me, err);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int ok = ramc_ctx_rank(ctx) == me && ramc_ctx_size(ctx) == n;
  unsigned long long slot = 0, mine = 1000 + (unsigned long long)me;
  ramc_target_t t;
  ramc_initiator_t i;
  if (ramc_target_create(ctx, &slot, sizeof(slot), 5, 3, &t) ||
      ramc_target_post(ctx, t) || ramc_bb_activate(ctx) ||
      ramc_initiator_attach(ctx, (me + 1) % n, 5, 3, 10000, &i) ||
      ramc_initiator_put(ctx, i, &mine, sizeof(mine), 0, 0) ||
      ramc_target_wait(ctx, t, 1, 10000)) {
    fprintf(stderr, "rank %d: %s\n", me, ramc_ctx_error(ctx));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  ok = ok && slot == 1000 + (unsigned long long)((me + n - 1) % n);
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (me == 0)
    printf("ramc-mpi-boot: %d ranks, bootstrap=%s: %s\n", n,
           ramc_ctx_bootstrap_name(ctx), all ? "PASS" : "FAIL");
  ramc_ctx_barrier(ctx);
  ramc_ctx_destroy(ctx);
  MPI_Finalize();
  return all ? 0 : 1;
}
