//===- Cusparse.cpp - Skeleton cuSPARSE: descriptors and SpMV -------------===//
//
// cuSPARSE's generic API as codes use it for sparse matrix-vector products:
// handles, dense-vector and CSR descriptors (which keep the sizes the library
// model needs: rows, columns, nonzeros, index and value widths) and SpMV,
// charged as one kernel on the handle's stream (LibraryCall.h). The matrix's
// nonzeros come from its descriptor, as cuSPARSE's own kernels get them.
//
//===----------------------------------------------------------------------===//

#include "LibraryCall.h"

#include <cusparse.h>

#include <algorithm>
#include <set>

struct cusparseContext {
  cudaStream_t Stream = nullptr;
  cusparsePointerMode_t PointerMode = CUSPARSE_POINTER_MODE_HOST;
};

struct cusparseDnVecDescr {
  int64_t Size = 0;
  const void *Values = nullptr;
  cudaDataType Type = CUDA_R_64F;
};

struct cusparseSpMatDescr {
  int64_t Rows = 0, Cols = 0, Nnz = 0;
  cusparseIndexType_t OffsetType = CUSPARSE_INDEX_32I,
                      IndexType = CUSPARSE_INDEX_32I;
  cudaDataType Type = CUDA_R_64F;
};

using orrery::sim::mathlibs::charge;
using orrery::sim::mathlibs::LibraryWork;

namespace {

template <typename T> std::set<const T *> &live() {
  static std::set<const T *> S; // ranks are actors of one process
  return S;
}

template <typename T> bool isLive(const T *P) {
  return P && live<T>().count(P);
}

template <typename T, typename Out> cusparseStatus_t create(Out **Result) {
  if (!Result)
    return CUSPARSE_STATUS_INVALID_VALUE;
  T *P = new T;
  live<T>().insert(P);
  *Result = P;
  return CUSPARSE_STATUS_SUCCESS;
}

template <typename T> cusparseStatus_t destroy(const T *P) {
  if (!P)
    return CUSPARSE_STATUS_SUCCESS; // as cuSPARSE: destroying null is fine
  if (!isLive(P))
    return CUSPARSE_STATUS_INVALID_VALUE;
  live<T>().erase(P);
  delete P;
  return CUSPARSE_STATUS_SUCCESS;
}

/// Bytes of one value; 0 for a type the model does not know.
double valueBytes(cudaDataType T) {
  switch (T) {
  case CUDA_R_16F:
  case CUDA_R_16BF:
    return 2;
  case CUDA_R_32F:
    return 4;
  case CUDA_R_64F:
  case CUDA_C_32F:
    return 8;
  case CUDA_C_64F:
    return 16;
  default:
    return 0;
  }
}

double indexBytes(cusparseIndexType_t T) {
  return T == CUSPARSE_INDEX_64I ? 8 : T == CUSPARSE_INDEX_16U ? 2 : 4;
}

} // namespace

extern "C" {

cusparseStatus_t cusparseCreate(cusparseHandle_t *H) {
  return create<cusparseContext>(H);
}

cusparseStatus_t cusparseDestroy(cusparseHandle_t H) {
  return H ? destroy<cusparseContext>(H) : CUSPARSE_STATUS_NOT_INITIALIZED;
}

cusparseStatus_t cusparseSetStream(cusparseHandle_t H, cudaStream_t S) {
  if (!isLive<cusparseContext>(H))
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  H->Stream = S;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseGetStream(cusparseHandle_t H, cudaStream_t *S) {
  if (!isLive<cusparseContext>(H))
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!S)
    return CUSPARSE_STATUS_INVALID_VALUE;
  *S = H->Stream;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSetPointerMode(cusparseHandle_t H,
                                        cusparsePointerMode_t Mode) {
  if (!isLive<cusparseContext>(H))
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  H->PointerMode = Mode;
  return CUSPARSE_STATUS_SUCCESS;
}

const char *cusparseGetErrorName(cusparseStatus_t S) {
  switch (S) {
  case CUSPARSE_STATUS_SUCCESS:
    return "CUSPARSE_STATUS_SUCCESS";
  case CUSPARSE_STATUS_NOT_INITIALIZED:
    return "CUSPARSE_STATUS_NOT_INITIALIZED";
  case CUSPARSE_STATUS_INVALID_VALUE:
    return "CUSPARSE_STATUS_INVALID_VALUE";
  case CUSPARSE_STATUS_EXECUTION_FAILED:
    return "CUSPARSE_STATUS_EXECUTION_FAILED";
  case CUSPARSE_STATUS_NOT_SUPPORTED:
    return "CUSPARSE_STATUS_NOT_SUPPORTED";
  default:
    return "CUSPARSE_STATUS_UNKNOWN";
  }
}

const char *cusparseGetErrorString(cusparseStatus_t S) {
  switch (S) {
  case CUSPARSE_STATUS_SUCCESS:
    return "success";
  case CUSPARSE_STATUS_NOT_INITIALIZED:
    return "initialization error";
  case CUSPARSE_STATUS_INVALID_VALUE:
    return "invalid value";
  case CUSPARSE_STATUS_EXECUTION_FAILED:
    return "execution failed";
  case CUSPARSE_STATUS_NOT_SUPPORTED:
    return "operation not supported";
  default:
    return "unknown error";
  }
}

cusparseStatus_t cusparseCreateDnVec(cusparseDnVecDescr_t *D, int64_t Size,
                                     void *Values, cudaDataType Type) {
  if (Size < 0 || valueBytes(Type) == 0)
    return CUSPARSE_STATUS_INVALID_VALUE;
  cusparseStatus_t S = create<cusparseDnVecDescr>(D);
  if (S == CUSPARSE_STATUS_SUCCESS)
    **D = {Size, Values, Type};
  return S;
}

cusparseStatus_t cusparseCreateConstDnVec(cusparseConstDnVecDescr_t *D,
                                          int64_t Size, const void *Values,
                                          cudaDataType Type) {
  cusparseDnVecDescr_t V = nullptr;
  cusparseStatus_t S =
      cusparseCreateDnVec(&V, Size, const_cast<void *>(Values), Type);
  if (S == CUSPARSE_STATUS_SUCCESS && D)
    *D = V;
  return S;
}

cusparseStatus_t cusparseDestroyDnVec(cusparseConstDnVecDescr_t D) {
  return destroy<cusparseDnVecDescr>(D);
}

cusparseStatus_t cusparseDnVecSetValues(cusparseDnVecDescr_t D, void *Values) {
  if (!isLive<cusparseDnVecDescr>(D))
    return CUSPARSE_STATUS_INVALID_VALUE;
  D->Values = Values;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDnVecGetValues(cusparseDnVecDescr_t D, void **Values) {
  if (!isLive<cusparseDnVecDescr>(D) || !Values)
    return CUSPARSE_STATUS_INVALID_VALUE;
  *Values = const_cast<void *>(D->Values);
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateCsr(cusparseSpMatDescr_t *M, int64_t Rows,
                                   int64_t Cols, int64_t Nnz, void *, void *,
                                   void *, cusparseIndexType_t OffsetType,
                                   cusparseIndexType_t IndexType,
                                   cusparseIndexBase_t, cudaDataType Type) {
  if (Rows < 0 || Cols < 0 || Nnz < 0 || valueBytes(Type) == 0)
    return CUSPARSE_STATUS_INVALID_VALUE;
  cusparseStatus_t S = create<cusparseSpMatDescr>(M);
  if (S == CUSPARSE_STATUS_SUCCESS)
    **M = {Rows, Cols, Nnz, OffsetType, IndexType, Type};
  return S;
}

cusparseStatus_t
cusparseCreateConstCsr(cusparseConstSpMatDescr_t *M, int64_t Rows, int64_t Cols,
                       int64_t Nnz, const void *Offsets, const void *Columns,
                       const void *Values, cusparseIndexType_t OffsetType,
                       cusparseIndexType_t IndexType, cusparseIndexBase_t Base,
                       cudaDataType Type) {
  cusparseSpMatDescr_t Out = nullptr;
  cusparseStatus_t S =
      cusparseCreateCsr(&Out, Rows, Cols, Nnz, const_cast<void *>(Offsets),
                        const_cast<void *>(Columns), const_cast<void *>(Values),
                        OffsetType, IndexType, Base, Type);
  if (S == CUSPARSE_STATUS_SUCCESS && M)
    *M = Out;
  return S;
}

cusparseStatus_t cusparseDestroySpMat(cusparseConstSpMatDescr_t M) {
  return destroy<cusparseSpMatDescr>(M);
}

cusparseStatus_t cusparseSpMatGetSize(cusparseConstSpMatDescr_t M,
                                      int64_t *Rows, int64_t *Cols,
                                      int64_t *Nnz) {
  if (!isLive<cusparseSpMatDescr>(M) || !Rows || !Cols || !Nnz)
    return CUSPARSE_STATUS_INVALID_VALUE;
  *Rows = M->Rows;
  *Cols = M->Cols;
  *Nnz = M->Nnz;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t
cusparseSpMV_bufferSize(cusparseHandle_t H, cusparseOperation_t, const void *,
                        cusparseConstSpMatDescr_t M, cusparseConstDnVecDescr_t,
                        const void *, cusparseDnVecDescr_t, cudaDataType,
                        cusparseSpMVAlg_t, size_t *Bytes) {
  if (!isLive<cusparseContext>(H))
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!isLive<cusparseSpMatDescr>(M) || !Bytes)
    return CUSPARSE_STATUS_INVALID_VALUE;
  // A small workspace, as cuSPARSE's CSR algorithms ask for: a few bytes
  // per row (row partitioning), at least a few hundred.
  *Bytes = static_cast<size_t>(std::max<int64_t>(4 * M->Rows, 256));
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t
cusparseSpMV_preprocess(cusparseHandle_t H, cusparseOperation_t, const void *,
                        cusparseConstSpMatDescr_t, cusparseConstDnVecDescr_t,
                        const void *, cusparseDnVecDescr_t, cudaDataType,
                        cusparseSpMVAlg_t, void *) {
  return isLive<cusparseContext>(H) ? CUSPARSE_STATUS_SUCCESS
                                    : CUSPARSE_STATUS_NOT_INITIALIZED;
}

// y = alpha op(A) x + beta y over a CSR matrix: one FMA per nonzero; reads
// the values and column indices (nnz each), the row offsets (rows + 1), x
// (each of its elements at least once) and y unless beta is zero; writes y.
cusparseStatus_t cusparseSpMV(cusparseHandle_t H, cusparseOperation_t Op,
                              const void *, cusparseConstSpMatDescr_t M,
                              cusparseConstDnVecDescr_t X, const void *Beta,
                              cusparseDnVecDescr_t Y, cudaDataType Compute,
                              cusparseSpMVAlg_t, void *) {
  if (!isLive<cusparseContext>(H))
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!isLive<cusparseSpMatDescr>(M) || !isLive<cusparseDnVecDescr>(X) ||
      !isLive<cusparseDnVecDescr>(Y))
    return CUSPARSE_STATUS_INVALID_VALUE;
  bool Trans = Op != CUSPARSE_OPERATION_NON_TRANSPOSE;
  double Out = double(Trans ? M->Cols : M->Rows),
         In = double(Trans ? M->Rows : M->Cols);
  if (X->Size != int64_t(In) || Y->Size != int64_t(Out))
    return CUSPARSE_STATUS_INVALID_VALUE;
  double E = valueBytes(M->Type), Ex = valueBytes(X->Type),
         Ey = valueBytes(Y->Type), Nnz = double(M->Nnz);
  bool BetaZero = false;
  if (H->PointerMode == CUSPARSE_POINTER_MODE_HOST && Beta) {
    double B = 0;
    if (Compute == CUDA_R_64F)
      B = *static_cast<const double *>(Beta);
    else if (Compute == CUDA_R_32F)
      B = *static_cast<const float *>(Beta);
    else
      B = 1;
    BetaZero = B == 0;
  }
  LibraryWork W;
  W.Routine = "cusparseSpMV";
  W.Key = reinterpret_cast<const void *>(&cusparseSpMV);
  W.Double = Compute == CUDA_R_64F || Compute == CUDA_C_64F;
  W.Fmas = Nnz;
  W.BytesRead = Nnz * (E + indexBytes(M->IndexType)) +
                (double(M->Rows) + 1) * indexBytes(M->OffsetType) +
                std::min(Nnz, In) * Ex + (BetaZero ? 0 : Out * Ey);
  W.BytesWritten = Out * Ey;
  // Row-split CSR kernels: a few nonzeros per thread, a thread per row at
  // least.
  W.Threads = std::max(double(M->Rows), Nnz / 4);
  return charge(H->Stream, W) == cudaSuccess ? CUSPARSE_STATUS_SUCCESS
                                             : CUSPARSE_STATUS_EXECUTION_FAILED;
}

} // extern "C"
