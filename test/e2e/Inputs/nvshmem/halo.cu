// A halo exchange and a residual in NVSHMEM's host API, as codes use it:
// initialised over an MPI communicator, a symmetric heap, a kernel that puts
// its boundary rows into the neighbours' arrays (device-initiated: compiled,
// not charged), a barrier on the stream after it, a put of a whole row on
// the stream, a sum over PEs on the stream, and host-side calls.
#include <cstdio>
#include <mpi.h>
#include <nvshmem.h>
#include <nvshmemx.h>

__global__ void sweep(float *a, int nx, int top, int bottom) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    a[nx + i] *= 0.5f;
    nvshmem_float_p(a + i, a[nx + i], top);
    nvshmemx_float_put_nbi_block(a + 2 * nx, a + nx, nx, bottom);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  attr.mpi_comm = &comm;
  nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr);
  int me = nvshmem_my_pe(), npes = nvshmem_n_pes();
  int top = (me + npes - 1) % npes, bottom = (me + 1) % npes;
  const int nx = 1 << 20;
  float *a = (float *)nvshmem_malloc(3 * nx * sizeof(float));
  double *norm = (double *)nvshmem_calloc(1, sizeof(double));
  double *sum = (double *)nvshmem_malloc(sizeof(double));
  cudaStream_t s;
  cudaStreamCreate(&s);
  nvshmem_barrier_all();
  for (int it = 0; it < 10; ++it) {
    sweep<<<nx / 256, 256, 0, s>>>(a, nx, top, bottom);
    nvshmemx_barrier_all_on_stream(s);
    nvshmemx_float_put_on_stream(a + 2 * nx, a + nx, nx, bottom, s);
    nvshmemx_double_sum_reduce_on_stream(NVSHMEM_TEAM_WORLD, sum, norm, 1, s);
  }
  cudaStreamSynchronize(s);
  void *near = nvshmem_ptr(a, bottom);
  std::printf("pe %d of %d: bottom %d %s\n", me, npes, bottom,
              near ? "reachable by load and store" : "not reachable");
  nvshmem_free(a);
  nvshmem_free(norm);
  nvshmem_free(sum);
  nvshmem_finalize();
  MPI_Finalize();
  return 0;
}
