/* Shared by the three bandwidth/latency programs of ramc-bw: message sizes,
 * batch counts and output format, so that they measure the same thing.
 *
 * Bandwidth: W puts of one size into the same target offset, then one
 * completion round trip (RAMC: the target waits for the W arrivals and puts
 * an 8-byte ack back; MPI RMA: MPI_Win_flush, as osu_put_bw; raw libfabric:
 * the last write carries CQ data, the target answers with an 8-byte write).
 * MB/s with MB = 10^6 B. Latency: ping-pong / 2 (MPI RMA: put + flush, as
 * osu_put_latency). */
#ifndef RAMC_BW_BENCH_COMMON_H
#define RAMC_BW_BENCH_COMMON_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BENCH_WINDOW 64      /* puts per batch (OSU's window size) */
#define BENCH_MAX (4u << 20) /* 4 MiB */
#define BENCH_WARMUP 2

static inline double bench_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Untimed windows (or round trips) before a size's timed ones. The first
 * size gets BENCH_FIRST_WARMUP windows (or as many round trips as are
 * timed): libfabric's shm provider warms up over its first ~1000 windows,
 * RAMC and the raw loop alike (RAMC, 64 x 1 B: 10.6, 9.9, 8.1, 5.8, 6.0, 5.1,
 * then 4.1 us per window in chunks of 200, on a 2-core VM), which Open MPI's
 * vader does not; the first size measured was 2-3 times too slow. */
#define BENCH_FIRST_WARMUP 1200
static inline size_t bench_min_size(void);
static inline int bench_warmup(size_t size, int count, int windows) {
  if (size != bench_min_size())
    return BENCH_WARMUP;
  return windows ? BENCH_FIRST_WARMUP : count;
}

/* Batches for a size: about 32 MiB moved (scaled by BENCH_SCALE), 4..400. */
static inline int bench_batches(size_t size) {
  const char *s = getenv("BENCH_SCALE");
  double scale = s ? atof(s) : 1.0;
  double b = scale * (32.0 * 1048576.0) / ((double)size * BENCH_WINDOW);
  if (b > 400 * scale)
    b = 400 * scale;
  if (b < 4)
    b = 4;
  return (int)b;
}

static inline int bench_pingpongs(size_t size) {
  const char *s = getenv("BENCH_SCALE");
  double scale = s ? atof(s) : 1.0;
  double n = scale * (64.0 * 1048576.0) / (double)(size + 4096);
  if (n > 2000 * scale)
    n = 2000 * scale;
  if (n < 4)
    n = 4;
  return (int)n;
}

/* Sizes min .. max, powers of two: 1 B .. 4 MiB unless BENCH_MIN_SIZE or
 * BENCH_MAX_SIZE say otherwise (the minimum rounded down to a power of
 * two), for runs focused on a few sizes. */
static inline size_t bench_min_size(void) {
  const char *s = getenv("BENCH_MIN_SIZE");
  size_t m = s ? (size_t)strtoull(s, NULL, 10) : 1, p = 1;
  while (p * 2 <= m && p * 2 <= BENCH_MAX)
    p *= 2;
  return p;
}

static inline size_t bench_max_size(void) {
  const char *s = getenv("BENCH_MAX_SIZE");
  size_t m = s ? (size_t)strtoull(s, NULL, 10) : BENCH_MAX;
  /* At least 8: the window also takes the 8-byte answer. */
  return m > BENCH_MAX ? BENCH_MAX : m < 8 ? 8 : m;
}

static inline void bench_row(size_t size, double mbps, double lat_us) {
  printf("size=%zu bw_MBps=%.2f lat_us=%.2f\n", size, mbps, lat_us);
  fflush(stdout);
}

#endif
