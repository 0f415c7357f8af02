// Probe: host memcpy bandwidth. Prints "memcpy BYTES SECONDS" per size
// (64 KiB to 64 MiB, powers of two; best of five trials of one copy). No
// MPI: orrery-calibrate runs it directly (docs/calibrate.md).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  long max_bytes = argc > 1 ? atol(argv[1]) : 64L << 20;
  char *src = malloc(max_bytes), *dst = malloc(max_bytes);
  if (!src || !dst) {
    fprintf(stderr, "memcpy: cannot allocate 2 x %ld bytes\n", max_bytes);
    return 2;
  }
  memset(src, 1, max_bytes);
  memset(dst, 2, max_bytes);
  for (long n = 64L << 10; n <= max_bytes; n *= 2) {
    double best = 1e30;
    for (int t = 0; t < 6; ++t) {
      double t0 = now();
      memcpy(dst, src, n);
      double dt = now() - t0;
      if (t > 0 && dt < best)
        best = dt;
    }
    // Keep the copies observable.
    if (dst[n - 1] != 1)
      return 3;
    printf("memcpy %ld %.9e\n", n, best);
  }
  free(src);
  free(dst);
  return 0;
}
