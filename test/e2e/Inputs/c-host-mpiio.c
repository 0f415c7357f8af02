/* A C host in the style of small CUDA+MPI solvers (sim-c-host-mpiio.test):
 * compiled with the MPI C compiler, cuda_runtime.h for device buffers, a
 * Cartesian decomposition with a strided column type for the halo, and
 * MPI-IO for the output. */
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>

#define NX 64
#define NY 32

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size, rank, dims[2] = {0, 0}, periods[2] = {0, 0}, up, down;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm cart;
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_shift(cart, 0, 1, &up, &down);

  static double field[NY][NX];
  double *d_field;
  cudaMalloc((void **)&d_field, sizeof field);
  cudaMemcpy(field, d_field, sizeof field, cudaMemcpyDeviceToHost);

  /* One column of the field: NY doubles NX apart. */
  MPI_Datatype column;
  MPI_Type_vector(NY, 1, NX, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  MPI_Status st;
  MPI_Sendrecv(&field[0][1], 1, column, up, 0, &field[0][0], 1, column, down,
               0, cart, &st);

  MPI_File fh;
  MPI_File_open(cart, "field.out", MPI_MODE_CREATE | MPI_MODE_WRONLY,
                MPI_INFO_NULL, &fh);
  MPI_Offset off = (MPI_Offset)rank * sizeof field;
  MPI_File_write_at_all(fh, off, field, NX * NY, MPI_DOUBLE, &st);
  MPI_Count written = 0, dsize = 0;
  MPI_Get_elements_x(&st, MPI_DOUBLE, &written);
  MPI_Type_size_x(MPI_DOUBLE, &dsize);
  MPI_File_close(&fh);

  printf("rank %d of %d (%d x %d): wrote %lld doubles of %lld bytes\n", rank,
         size, dims[0], dims[1], (long long)written, (long long)dsize);
  MPI_Type_free(&column);
  cudaFree(d_field);
  MPI_Finalize();
  return 0;
}
