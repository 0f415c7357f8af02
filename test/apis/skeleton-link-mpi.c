// REQUIRES: simgrid, orrery-sim
// Link check: a program taking the address of every MPI function the table
// marks simulated links against skeleton mode's MPI (SMPI's libsimgrid and
// liborrery-sim, which wraps MPI_Abort and MPI_Comm_split_type) alone.
// RUN: %clang -x c -Wall -Werror -I %smpi-include -I %src-root/apis/include %s -L %lib -lorrery-sim -x none %simgrid-lib -Wl,--allow-shlib-undefined -o %t
#include <mpi.h>

#define ORRERY_REFERENCE_true(Name) (const void *)&Name,
#define ORRERY_REFERENCE_false(Name)
#define ORRERY_MPI_API(Name, Op, Send, Recv, Peer, Comm, Match, Sim)           \
  ORRERY_REFERENCE_##Sim(Name)

const void *const Simulated[] = {
#include "orrery/apis/Mpi.def"
};

int main(void) { return Simulated[0] == 0; }
