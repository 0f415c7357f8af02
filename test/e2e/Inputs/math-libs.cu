// A conjugate-gradient-shaped solver on cuBLAS and cuSPARSE (sim-math-libs
// test): one DGEMM, then SpMV, DOT, AXPY and NRM2 per iteration until the
// residual norm, read back to the host, falls below a tolerance; then a 3-D
// FFT and random numbers (cuFFT, cuRAND).
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cufft.h>
#include <curand.h>
#include <cusparse.h>
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const int N = 2048;              // dense matrices N x N
  const int64_t Rows = 1 << 20;    // sparse matrix rows, 7 nonzeros each
  const int64_t Nnz = 7 * Rows;
  double *A, *B, *C, *Val, *X, *Y;
  int *Off, *Col;
  cudaMalloc(&A, sizeof(double) * N * N);
  cudaMalloc(&B, sizeof(double) * N * N);
  cudaMalloc(&C, sizeof(double) * N * N);
  cudaMalloc(&Off, sizeof(int) * (Rows + 1));
  cudaMalloc(&Col, sizeof(int) * Nnz);
  cudaMalloc(&Val, sizeof(double) * Nnz);
  cudaMalloc(&X, sizeof(double) * Rows);
  cudaMalloc(&Y, sizeof(double) * Rows);
  cudaStream_t S;
  cudaStreamCreate(&S);
  cublasHandle_t H;
  cublasCreate(&H);
  cublasSetStream(H, S);
  cusparseHandle_t SH;
  cusparseCreate(&SH);
  cusparseSetStream(SH, S);
  const double One = 1, Zero = 0;
  cublasDgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &One, A, N, B, N, &Zero,
              C, N);

  cusparseSpMatDescr_t M;
  cusparseDnVecDescr_t VX, VY;
  cusparseCreateCsr(&M, Rows, Rows, Nnz, Off, Col, Val, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  cusparseCreateDnVec(&VX, Rows, X, CUDA_R_64F);
  cusparseCreateDnVec(&VY, Rows, Y, CUDA_R_64F);
  size_t Bytes = 0;
  cusparseSpMV_bufferSize(SH, CUSPARSE_OPERATION_NON_TRANSPOSE, &One, M, VX,
                          &Zero, VY, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT,
                          &Bytes);
  void *Work;
  cudaMalloc(&Work, Bytes);
  int Iterations = 0;
  double Norm = 1, Dot = 0;
  while (Iterations < 1000) {
    cusparseSpMV(SH, CUSPARSE_OPERATION_NON_TRANSPOSE, &One, M, VX, &Zero, VY,
                 CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, Work);
    cublasDdot(H, Rows, X, 1, Y, 1, &Dot);
    cublasDaxpy(H, Rows, &One, Y, 1, X, 1);
    cublasDnrm2(H, Rows, X, 1, &Norm);
    ++Iterations;
    if (Norm < 1e-8)
      break;
  }
  // A 256^3 double-complex FFT in place, and 2^20 normal doubles.
  cufftHandle Plan;
  cufftPlan3d(&Plan, 256, 256, 256, CUFFT_Z2Z);
  cufftSetStream(Plan, S);
  cufftDoubleComplex *Z;
  cudaMalloc(&Z, sizeof(cufftDoubleComplex) * 256 * 256 * 256);
  cufftExecZ2Z(Plan, Z, Z, CUFFT_FORWARD);
  curandGenerator_t Gen;
  curandCreateGenerator(&Gen, CURAND_RNG_PSEUDO_DEFAULT);
  curandSetStream(Gen, S);
  curandGenerateNormalDouble(Gen, X, Rows, 0.0, 1.0);
  // A host generator's numbers are real: their mean is near 0.5.
  curandGenerator_t HostGen;
  curandCreateGeneratorHost(&HostGen, CURAND_RNG_PSEUDO_DEFAULT);
  float Host[1000];
  curandGenerateUniform(HostGen, Host, 1000);
  double Mean = 0;
  for (float V : Host)
    Mean += V / 1000;
  cudaStreamSynchronize(S);
  printf("iterations %d host mean %.1f\n", Iterations, Mean);
  cufftDestroy(Plan);
  curandDestroyGenerator(Gen);
  curandDestroyGenerator(HostGen);
  cusparseDestroySpMat(M);
  cusparseDestroyDnVec(VX);
  cusparseDestroyDnVec(VY);
  cusparseDestroy(SH);
  cublasDestroy(H);
  MPI_Finalize();
  return 0;
}
