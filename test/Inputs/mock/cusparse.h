/* Mock cuSPARSE header for tier-0 tests: the generic-API calls skeleton mode
 * models (apis/include/orrery/apis/MathLibs.def), CUDA 13 signatures. */
#ifndef ORRERY_MOCK_CUSPARSE_H
#define ORRERY_MOCK_CUSPARSE_H

#include <cuda_runtime.h>
#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { CUSPARSE_STATUS_SUCCESS = 0 } cusparseStatus_t;
typedef enum { CUSPARSE_OPERATION_NON_TRANSPOSE = 0 } cusparseOperation_t;
typedef enum { CUSPARSE_SPMV_ALG_DEFAULT = 0 } cusparseSpMVAlg_t;
typedef enum { CUSPARSE_INDEX_32I = 2 } cusparseIndexType_t;
typedef enum { CUSPARSE_INDEX_BASE_ZERO = 0 } cusparseIndexBase_t;
#ifndef ORRERY_MOCK_CUDA_DATA_TYPE
#define ORRERY_MOCK_CUDA_DATA_TYPE
typedef enum { CUDA_R_16F = 2, CUDA_R_32F = 0, CUDA_R_64F = 1 } cudaDataType;
#endif
typedef enum { CUSPARSE_ORDER_COL = 1 } cusparseOrder_t;
typedef enum { CUSPARSE_SPMM_ALG_DEFAULT = 0 } cusparseSpMMAlg_t;
typedef enum { CUSPARSE_SPSV_ALG_DEFAULT = 0 } cusparseSpSVAlg_t;
typedef struct cusparseDnMatDescr *cusparseDnMatDescr_t;
typedef struct cusparseDnMatDescr const *cusparseConstDnMatDescr_t;
typedef struct cusparseSpSVDescr *cusparseSpSVDescr_t;
typedef struct cusparseContext *cusparseHandle_t;
typedef struct cusparseDnVecDescr *cusparseDnVecDescr_t;
typedef struct cusparseSpMatDescr *cusparseSpMatDescr_t;
typedef struct cusparseDnVecDescr const *cusparseConstDnVecDescr_t;
typedef struct cusparseSpMatDescr const *cusparseConstSpMatDescr_t;

cusparseStatus_t cusparseCreate(cusparseHandle_t *handle);
cusparseStatus_t cusparseCreateCsr(cusparseSpMatDescr_t *spMatDescr,
                                   int64_t rows, int64_t cols, int64_t nnz,
                                   void *csrRowOffsets, void *csrColInd,
                                   void *csrValues,
                                   cusparseIndexType_t csrRowOffsetsType,
                                   cusparseIndexType_t csrColIndType,
                                   cusparseIndexBase_t idxBase,
                                   cudaDataType valueType);
cusparseStatus_t cusparseCreateDnVec(cusparseDnVecDescr_t *dnVecDescr,
                                     int64_t size, void *values,
                                     cudaDataType valueType);
cusparseStatus_t cusparseSpMV(cusparseHandle_t handle, cusparseOperation_t opA,
                              const void *alpha, cusparseConstSpMatDescr_t matA,
                              cusparseConstDnVecDescr_t vecX, const void *beta,
                              cusparseDnVecDescr_t vecY,
                              cudaDataType computeType, cusparseSpMVAlg_t alg,
                              void *externalBuffer);
cusparseStatus_t cusparseCreateDnMat(cusparseDnMatDescr_t *dnMatDescr,
                                     int64_t rows, int64_t cols, int64_t ld,
                                     void *values, cudaDataType valueType,
                                     cusparseOrder_t order);
cusparseStatus_t cusparseSpMM(cusparseHandle_t handle, cusparseOperation_t opA,
                              cusparseOperation_t opB, const void *alpha,
                              cusparseConstSpMatDescr_t matA,
                              cusparseConstDnMatDescr_t matB, const void *beta,
                              cusparseDnMatDescr_t matC,
                              cudaDataType computeType, cusparseSpMMAlg_t alg,
                              void *externalBuffer);
cusparseStatus_t cusparseSpSV_createDescr(cusparseSpSVDescr_t *descr);
cusparseStatus_t cusparseSpSV_analysis(
    cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
    cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpSVAlg_t alg,
    cusparseSpSVDescr_t spsvDescr, void *externalBuffer);
cusparseStatus_t cusparseSpSV_solve(cusparseHandle_t handle,
                                    cusparseOperation_t opA, const void *alpha,
                                    cusparseConstSpMatDescr_t matA,
                                    cusparseConstDnVecDescr_t vecX,
                                    cusparseDnVecDescr_t vecY,
                                    cudaDataType computeType,
                                    cusparseSpSVAlg_t alg,
                                    cusparseSpSVDescr_t spsvDescr);

#ifdef __cplusplus
}
#endif

#endif
