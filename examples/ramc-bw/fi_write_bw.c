/* ramc-bw-fi-write: the raw libfabric limit for ramc-bw's measurement.
 *
 *   mpirun -np 2 ramc-bw-fi-write     (RAMC_PROVIDER picks the provider)
 *
 * Same semantics as ramc-bw with nothing on top: per batch, W fi_write (or
 * fi_inject_write when the size allows), the last one carrying CQ data; the
 * target polls its CQ for it and answers with an 8-byte fi_inject_writedata;
 * the initiator waits for that and for its own transmit completions.
 * Latency: ping-pong / 2 with fi_writedata. MPI only exchanges addresses. */
#include "bench_common.h"

#include <mpi.h>
#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <string.h>

static struct fid_ep *ep;
static struct fid_cq *txcq, *rxcq;
static long outstanding;

#define CHK(call)                                                              \
  do {                                                                         \
    int rc_ = (int)(call);                                                     \
    if (rc_) {                                                                 \
      fprintf(stderr, "%s failed: %s\n", #call, fi_strerror(-rc_));            \
      MPI_Abort(MPI_COMM_WORLD, 1);                                            \
    }                                                                          \
  } while (0)

/* Drains completions; returns how many remote-data entries arrived. */
static int progress(void) {
  struct fi_cq_data_entry e[32];
  int data = 0;
  ssize_t n = fi_cq_read(txcq, e, 32);
  if (n > 0)
    outstanding -= n;
  else if (n == -FI_EAVAIL) {
    struct fi_cq_err_entry ee = {0};
    fi_cq_readerr(txcq, &ee, 0);
    fprintf(stderr, "transmit error: %s\n", fi_strerror(ee.err));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  n = fi_cq_read(rxcq, e, 32);
  for (ssize_t i = 0; i < n; ++i)
    data += (e[i].flags & FI_REMOTE_CQ_DATA) != 0;
  return data;
}

static void wait_data(int count) {
  while (count > 0)
    count -= progress();
}

/* Retries on -FI_EAGAIN while progressing. */
#define POST(expr)                                                             \
  do {                                                                         \
    ssize_t rc_;                                                               \
    while ((rc_ = (expr)) == -FI_EAGAIN)                                       \
      pending_data += progress();                                              \
    if (rc_) {                                                                 \
      fprintf(stderr, "%s failed: %s\n", #expr, fi_strerror((int)-rc_));       \
      MPI_Abort(MPI_COMM_WORLD, 1);                                            \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (np != 2) {
    fprintf(stderr, "ramc-bw-fi-write needs exactly 2 processes\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  setenv("FI_SOCKETS_PE_WAITTIME", "0", 0); /* as RAMC does */
  struct fi_info *hints = fi_allocinfo(), *info;
  hints->caps = FI_RMA;
  hints->ep_attr->type = FI_EP_RDM;
  hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR |
                                FI_MR_ALLOCATED | FI_MR_PROV_KEY |
                                FI_MR_ENDPOINT;
  hints->domain_attr->threading = FI_THREAD_DOMAIN;
  const char *prov = getenv("RAMC_PROVIDER");
  if (prov)
    hints->fabric_attr->prov_name = strdup(prov);
  CHK(fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info));
  struct fid_fabric *fab;
  struct fid_domain *dom;
  struct fid_av *av;
  CHK(fi_fabric(info->fabric_attr, &fab, NULL));
  CHK(fi_domain(fab, info, &dom, NULL));
  struct fi_cq_attr cqa = {.format = FI_CQ_FORMAT_DATA, .size = 4096};
  CHK(fi_cq_open(dom, &cqa, &txcq, NULL));
  CHK(fi_cq_open(dom, &cqa, &rxcq, NULL));
  struct fi_av_attr ava = {.type = info->domain_attr->av_type};
  CHK(fi_av_open(dom, &ava, &av, NULL));
  CHK(fi_endpoint(dom, info, &ep, NULL));
  CHK(fi_ep_bind(ep, &av->fid, 0));
  CHK(fi_ep_bind(ep, &txcq->fid, FI_TRANSMIT));
  CHK(fi_ep_bind(ep, &rxcq->fid, FI_RECV));
  CHK(fi_enable(ep));

  size_t max = bench_max_size();
  unsigned char *buf = calloc(1, max), *src = malloc(max);
  memset(src, 0xab, max);
  struct fid_mr *mr, *lmr;
  uint64_t mode = info->domain_attr->mr_mode;
  CHK(fi_mr_reg(dom, buf, max, FI_REMOTE_WRITE | FI_REMOTE_READ, 0, 1, 0, &mr,
                NULL));
  CHK(fi_mr_reg(dom, src, max, FI_WRITE | FI_READ, 0, 2, 0, &lmr, NULL));
  if (mode & FI_MR_ENDPOINT) {
    CHK(fi_mr_bind(mr, &ep->fid, 0));
    CHK(fi_mr_enable(mr));
    CHK(fi_mr_bind(lmr, &ep->fid, 0));
    CHK(fi_mr_enable(lmr));
  }
  void *desc = fi_mr_desc(lmr);
  struct {
    char name[256];
    size_t len;
    uint64_t key, base;
  } mine, peer;
  mine.len = sizeof(mine.name);
  CHK(fi_getname(&ep->fid, mine.name, &mine.len));
  mine.key = fi_mr_key(mr);
  mine.base = (mode & FI_MR_VIRT_ADDR) ? (uint64_t)(uintptr_t)buf : 0;
  MPI_Sendrecv(&mine, sizeof(mine), MPI_BYTE, 1 - me, 0, &peer, sizeof(peer),
               MPI_BYTE, 1 - me, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  fi_addr_t dest;
  if (fi_av_insert(av, peer.name, 1, &dest, 0, NULL) != 1) {
    fprintf(stderr, "fi_av_insert failed\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  size_t inject = info->tx_attr->inject_size;
  if (me == 0)
    printf("# ramc-bw-fi-write: raw fi_write, provider=%s inject=%zu, window "
           "%d\n",
           info->fabric_attr->prov_name, inject, BENCH_WINDOW);
  MPI_Barrier(MPI_COMM_WORLD);
  int pending_data = 0;

  for (size_t s = bench_min_size(); s <= max; s *= 2) {
    int batches = bench_batches(s);
    double t0 = 0;
    for (int b = 0; b < batches + bench_warmup(s, batches, 1); ++b) {
      if (b == bench_warmup(s, batches, 1))
        t0 = bench_now();
      if (me == 0) {
        for (int k = 0; k < BENCH_WINDOW - 1; ++k) {
          if (s <= inject)
            POST(fi_inject_write(ep, src, s, dest, peer.base, peer.key));
          else {
            POST(fi_write(ep, src, s, desc, dest, peer.base, peer.key, NULL));
            ++outstanding;
          }
        }
        if (s <= inject)
          POST(fi_inject_writedata(ep, src, s, 1, dest, peer.base, peer.key));
        else {
          POST(fi_writedata(ep, src, s, desc, 1, dest, peer.base, peer.key,
                            NULL));
          ++outstanding;
        }
        wait_data(1 - pending_data);
        pending_data = 0;
        while (outstanding > 0)
          pending_data += progress();
      } else {
        wait_data(1 - pending_data);
        pending_data = 0;
        POST(fi_inject_writedata(ep, src, 8, 2, dest, peer.base, peer.key));
      }
    }
    double bw_time = bench_now() - t0;
    int n = bench_pingpongs(s);
    for (int k = 0; k < n + bench_warmup(s, n, 0); ++k) {
      if (k == bench_warmup(s, n, 0))
        t0 = bench_now();
      if (me == 1) {
        wait_data(1 - pending_data);
        pending_data = 0;
      }
      if (s <= inject)
        POST(fi_inject_writedata(ep, src, s, 3, dest, peer.base, peer.key));
      else {
        POST(
            fi_writedata(ep, src, s, desc, 3, dest, peer.base, peer.key, NULL));
        ++outstanding;
      }
      if (me == 0) {
        wait_data(1 - pending_data);
        pending_data = 0;
      }
      while (outstanding > 0)
        pending_data += progress();
    }
    double lat_time = bench_now() - t0;
    if (me == 0)
      bench_row(s, (double)s * BENCH_WINDOW * batches / bw_time / 1e6,
                lat_time / (2.0 * n) * 1e6);
  }
  /* Keep progressing until both sides are done (manual-progress providers). */
  MPI_Request req;
  int done = 0;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  while (!done) {
    progress();
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
  }
  fi_close(&mr->fid);
  fi_close(&lmr->fid);
  fi_close(&ep->fid);
  fi_close(&av->fid);
  fi_close(&txcq->fid);
  fi_close(&rxcq->fid);
  fi_close(&dom->fid);
  fi_close(&fab->fid);
  fi_freeinfo(info);
  fi_freeinfo(hints);
  free(buf);
  free(src);
  MPI_Finalize();
  return 0;
}
