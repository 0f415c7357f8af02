// Every non-blocking collective on device buffers, next to its blocking
// form (test/e2e/sim-nonblocking.test). For each collective C prints
//   C_blocking <seconds>   and   C_nonblocking <seconds>
// measured with MPI_Wtime on simulated clocks between barriers; the
// non-blocking form is started and at once waited for, so both must cost
// the same: call overhead, device legs, host bounce and reduction included.
#include <cuda_runtime.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

static double timed(MPI_Comm comm, void (*run)(void *), void *ctx) {
  MPI_Barrier(comm);
  double t0 = MPI_Wtime();
  run(ctx);
  double t1 = MPI_Wtime();
  double dt = t1 - t0, slowest = 0;
  MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
  return slowest;
}

struct Args {
  double *s, *r;
  int n, size;
  int *counts, *displs;
  int blocking;
};

#define COLLECTIVE(NAME, BLOCKING, NONBLOCKING)                                \
  static void NAME(void *p) {                                                  \
    struct Args *a = (struct Args *)p;                                         \
    MPI_Request q;                                                             \
    if (a->blocking) {                                                         \
      BLOCKING;                                                                \
    } else {                                                                   \
      NONBLOCKING;                                                             \
      MPI_Wait(&q, MPI_STATUS_IGNORE);                                         \
    }                                                                          \
  }

#define W MPI_COMM_WORLD
#define D MPI_DOUBLE
COLLECTIVE(allreduce, MPI_Allreduce(a->s, a->r, a->n, D, MPI_SUM, W),
           MPI_Iallreduce(a->s, a->r, a->n, D, MPI_SUM, W, &q))
COLLECTIVE(reduce, MPI_Reduce(a->s, a->r, a->n, D, MPI_SUM, 0, W),
           MPI_Ireduce(a->s, a->r, a->n, D, MPI_SUM, 0, W, &q))
COLLECTIVE(reduce_scatter_block,
           MPI_Reduce_scatter_block(a->s, a->r, a->n / a->size, D, MPI_SUM, W),
           MPI_Ireduce_scatter_block(a->s, a->r, a->n / a->size, D, MPI_SUM, W,
                                     &q))
COLLECTIVE(reduce_scatter,
           MPI_Reduce_scatter(a->s, a->r, a->counts, D, MPI_SUM, W),
           MPI_Ireduce_scatter(a->s, a->r, a->counts, D, MPI_SUM, W, &q))
COLLECTIVE(scan, MPI_Scan(a->s, a->r, a->n, D, MPI_SUM, W),
           MPI_Iscan(a->s, a->r, a->n, D, MPI_SUM, W, &q))
COLLECTIVE(exscan, MPI_Exscan(a->s, a->r, a->n, D, MPI_SUM, W),
           MPI_Iexscan(a->s, a->r, a->n, D, MPI_SUM, W, &q))
COLLECTIVE(bcast, MPI_Bcast(a->s, a->n, D, 0, W),
           MPI_Ibcast(a->s, a->n, D, 0, W, &q))
COLLECTIVE(allgather,
           MPI_Allgather(a->s, a->n / a->size, D, a->r, a->n / a->size, D, W),
           MPI_Iallgather(a->s, a->n / a->size, D, a->r, a->n / a->size, D, W,
                          &q))
COLLECTIVE(allgatherv,
           MPI_Allgatherv(a->s, a->n / a->size, D, a->r, a->counts, a->displs,
                          D, W),
           MPI_Iallgatherv(a->s, a->n / a->size, D, a->r, a->counts, a->displs,
                           D, W, &q))
COLLECTIVE(gather,
           MPI_Gather(a->s, a->n / a->size, D, a->r, a->n / a->size, D, 0, W),
           MPI_Igather(a->s, a->n / a->size, D, a->r, a->n / a->size, D, 0, W,
                       &q))
COLLECTIVE(gatherv,
           MPI_Gatherv(a->s, a->n / a->size, D, a->r, a->counts, a->displs, D,
                       0, W),
           MPI_Igatherv(a->s, a->n / a->size, D, a->r, a->counts, a->displs, D,
                        0, W, &q))
COLLECTIVE(scatter,
           MPI_Scatter(a->s, a->n / a->size, D, a->r, a->n / a->size, D, 0, W),
           MPI_Iscatter(a->s, a->n / a->size, D, a->r, a->n / a->size, D, 0, W,
                        &q))
COLLECTIVE(scatterv,
           MPI_Scatterv(a->s, a->counts, a->displs, D, a->r, a->n / a->size, D,
                        0, W),
           MPI_Iscatterv(a->s, a->counts, a->displs, D, a->r, a->n / a->size,
                         D, 0, W, &q))
COLLECTIVE(alltoall,
           MPI_Alltoall(a->s, a->n / a->size, D, a->r, a->n / a->size, D, W),
           MPI_Ialltoall(a->s, a->n / a->size, D, a->r, a->n / a->size, D, W,
                         &q))
COLLECTIVE(alltoallv,
           MPI_Alltoallv(a->s, a->counts, a->displs, D, a->r, a->counts,
                         a->displs, D, W),
           MPI_Ialltoallv(a->s, a->counts, a->displs, D, a->r, a->counts,
                          a->displs, D, W, &q))
COLLECTIVE(barrier, MPI_Barrier(W), MPI_Ibarrier(W, &q))

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  struct Args a;
  a.n = argc > 1 ? atoi(argv[1]) : 131072; // doubles
  a.size = size;
  a.counts = (int *)malloc(size * sizeof(int));
  a.displs = (int *)malloc(size * sizeof(int));
  for (int i = 0; i < size; ++i) {
    a.counts[i] = a.n / size;
    a.displs[i] = i * (a.n / size);
  }
  cudaSetDevice(0);
  cudaMalloc((void **)&a.s, a.n * sizeof(double));
  cudaMalloc((void **)&a.r, a.n * sizeof(double));
  struct {
    const char *name;
    void (*run)(void *);
  } colls[] = {{"allreduce", allreduce},
               {"reduce", reduce},
               {"reduce_scatter_block", reduce_scatter_block},
               {"reduce_scatter", reduce_scatter},
               {"scan", scan},
               {"exscan", exscan},
               {"bcast", bcast},
               {"allgather", allgather},
               {"allgatherv", allgatherv},
               {"gather", gather},
               {"gatherv", gatherv},
               {"scatter", scatter},
               {"scatterv", scatterv},
               {"alltoall", alltoall},
               {"alltoallv", alltoallv},
               {"barrier", barrier}};
  for (unsigned i = 0; i < sizeof colls / sizeof colls[0]; ++i) {
    a.blocking = 1;
    double b = timed(MPI_COMM_WORLD, colls[i].run, &a);
    a.blocking = 0;
    double nb = timed(MPI_COMM_WORLD, colls[i].run, &a);
    if (rank == 0)
      printf("%s_blocking %.9f\n%s_nonblocking %.9f\n", colls[i].name, b,
             colls[i].name, nb);
  }
  cudaFree(a.s);
  cudaFree(a.r);
  MPI_Finalize();
  return 0;
}
