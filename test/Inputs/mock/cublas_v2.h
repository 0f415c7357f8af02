/* Mock cuBLAS header for tier-0 tests: the calls skeleton mode models
 * (apis/include/orrery/apis/MathLibs.def), with the CUDA 13 signatures and
 * the _v2 names the real header maps them to. */
#ifndef ORRERY_MOCK_CUBLAS_V2_H
#define ORRERY_MOCK_CUBLAS_V2_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1
} cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum { CUBLAS_FILL_MODE_LOWER = 0 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0 } cublasDiagType_t;
typedef enum { CUBLAS_COMPUTE_32F = 68 } cublasComputeType_t;
typedef enum { CUBLAS_GEMM_DEFAULT = -1 } cublasGemmAlgo_t;
#ifndef ORRERY_MOCK_CUDA_DATA_TYPE
#define ORRERY_MOCK_CUDA_DATA_TYPE
typedef enum { CUDA_R_16F = 2, CUDA_R_32F = 0, CUDA_R_64F = 1 } cudaDataType;
#endif
typedef struct cublasContext *cublasHandle_t;

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t s);
cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k,
                              const float *alpha, const float *A, int lda,
                              const float *B, int ldb, const float *beta,
                              float *C, int ldc);
cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k,
                              const double *alpha, const double *A, int lda,
                              const double *B, int ldb, const double *beta,
                              double *C, int ldc);
cublasStatus_t cublasStrsm_v2(cublasHandle_t handle, cublasSideMode_t side,
                              cublasFillMode_t uplo, cublasOperation_t trans,
                              cublasDiagType_t diag, int m, int n,
                              const float *alpha, const float *A, int lda,
                              float *B, int ldb);
cublasStatus_t cublasDtrsm_v2(cublasHandle_t handle, cublasSideMode_t side,
                              cublasFillMode_t uplo, cublasOperation_t trans,
                              cublasDiagType_t diag, int m, int n,
                              const double *alpha, const double *A, int lda,
                              double *B, int ldb);
cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int m, int n, int k,
                            const void *alpha, const void *A,
                            cudaDataType Atype, int lda, const void *B,
                            cudaDataType Btype, int ldb, const void *beta,
                            void *C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t computeType,
                            cublasGemmAlgo_t algo);
cublasStatus_t cublasSgemv_v2(cublasHandle_t handle, cublasOperation_t trans,
                              int m, int n, const float *alpha,
                              const float *A, int lda, const float *x,
                              int incx, const float *beta, float *y, int incy);
cublasStatus_t cublasDgemv_v2(cublasHandle_t handle, cublasOperation_t trans,
                              int m, int n, const double *alpha,
                              const double *A, int lda, const double *x,
                              int incx, const double *beta, double *y,
                              int incy);
cublasStatus_t cublasSaxpy_v2(cublasHandle_t handle, int n,
                              const float *alpha, const float *x, int incx,
                              float *y, int incy);
cublasStatus_t cublasDaxpy_v2(cublasHandle_t handle, int n,
                              const double *alpha, const double *x, int incx,
                              double *y, int incy);
cublasStatus_t cublasSdot_v2(cublasHandle_t handle, int n, const float *x,
                             int incx, const float *y, int incy,
                             float *result);
cublasStatus_t cublasDdot_v2(cublasHandle_t handle, int n, const double *x,
                             int incx, const double *y, int incy,
                             double *result);
cublasStatus_t cublasSnrm2_v2(cublasHandle_t handle, int n, const float *x,
                              int incx, float *result);
cublasStatus_t cublasDnrm2_v2(cublasHandle_t handle, int n, const double *x,
                              int incx, double *result);
cublasStatus_t cublasSscal_v2(cublasHandle_t handle, int n,
                              const float *alpha, float *x, int incx);
cublasStatus_t cublasDscal_v2(cublasHandle_t handle, int n,
                              const double *alpha, double *x, int incx);
cublasStatus_t cublasScopy_v2(cublasHandle_t handle, int n, const float *x,
                              int incx, float *y, int incy);
cublasStatus_t cublasDcopy_v2(cublasHandle_t handle, int n, const double *x,
                              int incx, double *y, int incy);
cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx,
                               void *devicePtr, int incy);
cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx,
                               void *y, int incy);
cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize,
                               const void *A, int lda, void *B, int ldb);
cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize,
                               const void *A, int lda, void *B, int ldb);

#ifdef __cplusplus
}
#endif

#define cublasCreate cublasCreate_v2
#define cublasDestroy cublasDestroy_v2
#define cublasSetStream cublasSetStream_v2
#define cublasSgemm cublasSgemm_v2
#define cublasDgemm cublasDgemm_v2
#define cublasSgemv cublasSgemv_v2
#define cublasDgemv cublasDgemv_v2
#define cublasStrsm cublasStrsm_v2
#define cublasDtrsm cublasDtrsm_v2
#define cublasSaxpy cublasSaxpy_v2
#define cublasDaxpy cublasDaxpy_v2
#define cublasSdot cublasSdot_v2
#define cublasDdot cublasDdot_v2
#define cublasSnrm2 cublasSnrm2_v2
#define cublasDnrm2 cublasDnrm2_v2
#define cublasSscal cublasSscal_v2
#define cublasDscal cublasDscal_v2
#define cublasScopy cublasScopy_v2
#define cublasDcopy cublasDcopy_v2

#endif
