// End to end, natively: an instrumented MPI program built against the native
// backend (liborrery-native) runs unchanged under mpirun and records how often
// each site ran (bytes are those of CUDA and RAMC calls: 0 for MPI calls).
// REQUIRES: mpi
// RUN: orrery-instrument --quiet %s -o %t.c -- %ompi-include
// RUN: bash -c 'mpicc %t.c $(orrery-config --cflags --libs) -o %t.exe'
// RUN: rm -f %t.prof.*
// RUN: env ORRERY_PROFILE=%t.prof.%%p timeout 120 %mpirun -np 2 %t.exe | sort | FileCheck %s
// RUN: cat %t.prof.* | FileCheck %s --check-prefix=PROFILE
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, size;
  double v, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  v = rank + 1;
  for (int i = 0; i < 3; ++i) {
    double got = 0;
    MPI_Sendrecv(&v, 1, MPI_DOUBLE, (rank + 1) % size, 0, &got, 1, MPI_DOUBLE,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Allreduce(&got, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  printf("rank %d of %d: sum %.1f\n", rank, size, sum);
  MPI_Finalize();
  return 0;
}

// CHECK: rank 0 of 2: sum 3.0
// CHECK-NEXT: rank 1 of 2: sum 3.0

// PROFILE: "mode": "native",
// PROFILE: "api": "MPI_Sendrecv",
// PROFILE-NEXT: "bytes": 0,
// PROFILE-NEXT: "callee": "",
// PROFILE-NEXT: "calls": 3,
// PROFILE: "api": "MPI_Allreduce",
// PROFILE-NEXT: "bytes": 0,
// PROFILE-NEXT: "callee": "",
// PROFILE-NEXT: "calls": 3,
