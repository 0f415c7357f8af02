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
typedef enum { CUDA_R_64F = 1 } cudaDataType;
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

#ifdef __cplusplus
}
#endif

#endif
