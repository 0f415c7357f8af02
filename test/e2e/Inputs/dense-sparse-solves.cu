// The cuBLAS and cuSPARSE calls of direct and preconditioned solvers
// (sim-dense-sparse-solves test): a triangular solve with many right-hand
// sides (DTRSM), a mixed-precision GEMM (half inputs, float output), a sparse
// matrix times a block of vectors (SpMM) and a sparse triangular solve
// (SpSV: analysis once, then the solve).
#include <cstdio>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cusparse.h>

int main() {
  const int N = 1024, G = 4096;
  const int64_t Rows = 1 << 20, Nnz = 7 * Rows, LowerNnz = 4 * Rows;
  double *T, *B, *Val, *X, *Y, *Xb, *Yb;
  __half *Ah, *Bh;
  float *Cf;
  int *Off, *Col;
  cudaMalloc(&T, sizeof(double) * N * N);
  cudaMalloc(&B, sizeof(double) * N * N);
  cudaMalloc(&Ah, sizeof(__half) * G * G);
  cudaMalloc(&Bh, sizeof(__half) * G * G);
  cudaMalloc(&Cf, sizeof(float) * G * G);
  cudaMalloc(&Off, sizeof(int) * (Rows + 1));
  cudaMalloc(&Col, sizeof(int) * Nnz);
  cudaMalloc(&Val, sizeof(double) * Nnz);
  cudaMalloc(&X, sizeof(double) * Rows);
  cudaMalloc(&Y, sizeof(double) * Rows);
  cudaMalloc(&Xb, sizeof(double) * Rows * 8);
  cudaMalloc(&Yb, sizeof(double) * Rows * 8);

  cublasHandle_t H;
  cublasCreate(&H);
  const double One = 1, Zero = 0;
  const float FOne = 1, FZero = 0;
  int Bad = 0;
  Bad |= cublasDtrsm(H, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                     CUBLAS_DIAG_NON_UNIT, N, N, &One, T, N, B, N);
  Bad |= cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, G, G, G, &FOne, Ah,
                      CUDA_R_16F, G, Bh, CUDA_R_16F, G, &FZero, Cf, CUDA_R_32F,
                      G, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);

  cusparseHandle_t SH;
  cusparseCreate(&SH);
  cusparseSpMatDescr_t A, L;
  cusparseCreateCsr(&A, Rows, Rows, Nnz, Off, Col, Val, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  cusparseCreateCsr(&L, Rows, Rows, LowerNnz, Off, Col, Val,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  cusparseFillMode_t Fill = CUSPARSE_FILL_MODE_LOWER;
  Bad |= cusparseSpMatSetAttribute(L, CUSPARSE_SPMAT_FILL_MODE, &Fill,
                                   sizeof Fill);
  cusparseDnMatDescr_t Bm, Cm;
  cusparseCreateDnMat(&Bm, Rows, 8, Rows, Xb, CUDA_R_64F, CUSPARSE_ORDER_COL);
  cusparseCreateDnMat(&Cm, Rows, 8, Rows, Yb, CUDA_R_64F, CUSPARSE_ORDER_COL);
  size_t Bytes = 0;
  void *Buf = nullptr;
  Bad |= cusparseSpMM_bufferSize(SH, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                 CUSPARSE_OPERATION_NON_TRANSPOSE, &One, A, Bm,
                                 &Zero, Cm, CUDA_R_64F,
                                 CUSPARSE_SPMM_ALG_DEFAULT, &Bytes);
  cudaMalloc(&Buf, Bytes);
  Bad |= cusparseSpMM(SH, CUSPARSE_OPERATION_NON_TRANSPOSE,
                      CUSPARSE_OPERATION_NON_TRANSPOSE, &One, A, Bm, &Zero, Cm,
                      CUDA_R_64F, CUSPARSE_SPMM_ALG_DEFAULT, Buf);

  cusparseDnVecDescr_t Vx, Vy;
  cusparseCreateDnVec(&Vx, Rows, X, CUDA_R_64F);
  cusparseCreateDnVec(&Vy, Rows, Y, CUDA_R_64F);
  cusparseSpSVDescr_t Sv;
  cusparseSpSV_createDescr(&Sv);
  Bad |= cusparseSpSV_bufferSize(SH, CUSPARSE_OPERATION_NON_TRANSPOSE, &One,
                                 L, Vx, Vy, CUDA_R_64F,
                                 CUSPARSE_SPSV_ALG_DEFAULT, Sv, &Bytes);
  Bad |= cusparseSpSV_analysis(SH, CUSPARSE_OPERATION_NON_TRANSPOSE, &One, L,
                               Vx, Vy, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT,
                               Sv, Buf);
  for (int I = 0; I < 3; ++I)
    Bad |= cusparseSpSV_solve(SH, CUSPARSE_OPERATION_NON_TRANSPOSE, &One, L,
                              Vx, Vy, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT,
                              Sv);
  // A solve of a matrix the analysis did not see is an error, as in
  // cuSPARSE.
  int Unanalysed = cusparseSpSV_solve(SH, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                      &One, A, Vx, Vy, CUDA_R_64F,
                                      CUSPARSE_SPSV_ALG_DEFAULT, Sv);
  cudaDeviceSynchronize();
  std::printf("status %d, unanalysed solve %s\n", Bad,
              Unanalysed == CUSPARSE_STATUS_INVALID_VALUE ? "refused"
                                                           : "accepted");
  cusparseSpSV_destroyDescr(Sv);
  cusparseDestroyDnMat(Bm);
  cusparseDestroyDnMat(Cm);
  cusparseDestroySpMat(A);
  cusparseDestroySpMat(L);
  cusparseDestroy(SH);
  cublasDestroy(H);
  return 0;
}
