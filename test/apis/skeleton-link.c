// REQUIRES: cuda-toolkit, orrery-sim
// Link check: a program taking the address of every CUDA function the tables
// mark simulated links against liborrery-sim and liborrery-sim-mathlibs alone
// (no libcudart, no CUDA math library).
// RUN: %clang -x c -Wall -Werror -I %cuda-path/include -I %src-root/apis/include %s -L %lib -lorrery-sim-mathlibs -lorrery-sim -Wl,--allow-shlib-undefined -o %t
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <curand.h>
#include <cusparse.h>

#define ORRERY_REFERENCE_true(Name) (const void *)&Name,
#define ORRERY_REFERENCE_false(Name)
#define ORRERY_CUDA_API(Name, Op, Hook, Dst, Src, Aux, Stream, DeviceRead,     \
                        Sim)                                                   \
  ORRERY_REFERENCE_##Sim(Name)

const void *const Simulated[] = {
#include "orrery/apis/Cuda.def"
#define ORRERY_CUDA_API(Name, Op, Hook, Dst, Src, Aux, Stream, DeviceRead,     \
                        Sim)                                                   \
  ORRERY_REFERENCE_##Sim(Name)
#include "orrery/apis/MathLibs.def"
};

int main(void) { return Simulated[0] == 0; }
