// Reads the GPU clock with NVML, as benchmark suites do to turn times into
// cycles; the power is not modelled.
#include <cuda_runtime.h>
#include <mpi.h>
#include <nvml.h>
#include <cstdio>
int main(int c, char **v) {
  MPI_Init(&c, &v);
  nvmlInit();
  unsigned n = 0, clock = 0, power = 7;
  nvmlDeviceGetCount(&n);
  nvmlDevice_t d;
  nvmlDeviceGetHandleByIndex(0, &d);
  nvmlReturn_t r = nvmlDeviceGetClockInfo(d, NVML_CLOCK_SM, &clock);
  nvmlReturn_t p = nvmlDeviceGetPowerUsage(d, &power);
  std::printf("%u GPUs, SM clock %u MHz (%s), power %u (%s)\n", n, clock, nvmlErrorString(r), power, nvmlErrorString(p));
  nvmlShutdown();
  MPI_Finalize();
  return 0;
}
