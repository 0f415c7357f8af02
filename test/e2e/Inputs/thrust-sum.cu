// thrust and CUB in a skeleton program: they ask for function attributes and
// occupancy, launch through cudaLaunchKernelExC and match the PTX version
// against the compile's GPU list (test/e2e/sim-thrust.test).
#include <mpi.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>

#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  thrust::device_vector<double> v(1 << 20);
  thrust::sequence(v.begin(), v.end());
  double s = thrust::reduce(v.begin(), v.end());
  // Device memory holds no data in skeleton mode: the sum reads back as 0.
  std::printf("rank %d sum %g\n", rank, s);
  MPI_Finalize();
  return 0;
}
