// Helpers every reduction of solver.cu goes through, in a file of their
// own (as TeaLeaf's and Quicksilver's are): a value set at this file's lines
// would reach every caller alike.
#include <cuda_runtime.h>
#include <mpi.h>

double globalSum(double Local) {
  double Sum = 0;
  MPI_Allreduce(&Local, &Sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return Sum;
}

long long globalCount(long long Local) {
  long long Sum = 0;
  MPI_Allreduce(&Local, &Sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return Sum;
}

double readBack(const double *Device) {
  double Host = 0;
  cudaMemcpy(&Host, Device, sizeof Host, cudaMemcpyDeviceToHost);
  return Host;
}

void startCount(const long long *Local, long long *Sum, MPI_Request *Req) {
  MPI_Iallreduce(Local, Sum, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, Req);
}
