// REQUIRES: simgrid, orrery-sim
// Link check: a program taking the address of every RAMC function the table
// marks simulated links against libramc-sim alone (no libfabric).
// RUN: %clang -x c -Wall -Werror -I %src-root/runtime/ramc/include -I %src-root/apis/include %s -L %lib -lramc-sim -Wl,--allow-shlib-undefined -o %t
#include <ramc_api.h>
#include <ramc/ramc_ctx.h>

#define ORRERY_REFERENCE_true(Name) (const void *)&Name,
#define ORRERY_REFERENCE_false(Name)
#define ORRERY_RAMC_API(Name, Op, Src, Dst, Peer, Object, Handle, Sim)         \
  ORRERY_REFERENCE_##Sim(Name)

const void *const Simulated[] = {
#include "orrery/apis/Ramc.def"
};

int main(void) { return Simulated[0] == 0; }
