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
  cusparseFillMode_t Fill = CUSPARSE_FILL_MODE_LOWER;
  cusparseDiagType_t Diag = CUSPARSE_DIAG_TYPE_NON_UNIT;
};

struct cusparseDnMatDescr {
  int64_t Rows = 0, Cols = 0, Ld = 0;
  const void *Values = nullptr;
  cudaDataType Type = CUDA_R_64F;
  cusparseOrder_t Order = CUSPARSE_ORDER_COL;
};

/// What SpSV's analysis found: the matrix it analysed.
struct cusparseSpSVDescr {
  const cusparseSpMatDescr *Analysed = nullptr;
};

using orrery::sim::mathlibs::charge;
using orrery::sim::mathlibs::dataTypeBytes;
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

double indexBytes(cusparseIndexType_t T) {
  return T == CUSPARSE_INDEX_64I ? 8 : T == CUSPARSE_INDEX_16U ? 2 : 4;
}

/// Whether beta is zero (the output is not read): known in host pointer
/// mode, where it is in the compute type.
bool betaIsZero(cusparseHandle_t H, const void *Beta, cudaDataType Compute) {
  if (H->PointerMode != CUSPARSE_POINTER_MODE_HOST || !Beta)
    return false;
  if (Compute == CUDA_R_64F)
    return *static_cast<const double *>(Beta) == 0;
  if (Compute == CUDA_R_32F)
    return *static_cast<const float *>(Beta) == 0;
  return false;
}

/// Bytes of a CSR matrix's structure and values: what every product or
/// solve over it reads once.
double csrBytes(const cusparseSpMatDescr &M) {
  return double(M.Nnz) * (dataTypeBytes(M.Type) + indexBytes(M.IndexType)) +
         (double(M.Rows) + 1) * indexBytes(M.OffsetType);
}

/// A *_bufferSize call: \p PerRow bytes a row of \p M, at least a few
/// hundred (the workspaces cuSPARSE's CSR algorithms ask for are small).
cusparseStatus_t workspace(cusparseHandle_t H, cusparseConstSpMatDescr_t M,
                           size_t *Bytes, int64_t PerRow) {
  if (!isLive<cusparseContext>(H))
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!isLive<cusparseSpMatDescr>(M) || !Bytes)
    return CUSPARSE_STATUS_INVALID_VALUE;
  *Bytes = static_cast<size_t>(std::max<int64_t>(PerRow * M->Rows, 256));
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t chargeOn(cusparseHandle_t H, const LibraryWork &W) {
  return charge(H->Stream, W) == cudaSuccess ? CUSPARSE_STATUS_SUCCESS
                                             : CUSPARSE_STATUS_EXECUTION_FAILED;
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
  if (Size < 0 || dataTypeBytes(Type) == 0)
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
  if (Rows < 0 || Cols < 0 || Nnz < 0 || dataTypeBytes(Type) == 0)
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
  return workspace(H, M, Bytes, 4); // row partitioning
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
  double Ex = dataTypeBytes(X->Type), Ey = dataTypeBytes(Y->Type),
         Nnz = double(M->Nnz);
  bool BetaZero = betaIsZero(H, Beta, Compute);
  LibraryWork W;
  W.Routine = "cusparseSpMV";
  W.Key = reinterpret_cast<const void *>(&cusparseSpMV);
  W.Double = Compute == CUDA_R_64F || Compute == CUDA_C_64F;
  W.Fmas = Nnz;
  W.BytesRead =
      csrBytes(*M) + std::min(Nnz, In) * Ex + (BetaZero ? 0 : Out * Ey);
  W.BytesWritten = Out * Ey;
  // Row-split CSR kernels: a few nonzeros per thread, a thread per row at
  // least.
  W.Threads = std::max(double(M->Rows), Nnz / 4);
  return chargeOn(H, W);
}

cusparseStatus_t cusparseSpMatSetAttribute(cusparseSpMatDescr_t M,
                                           cusparseSpMatAttribute_t Attribute,
                                           void *Data, size_t Bytes) {
  if (!isLive<cusparseSpMatDescr>(M) || !Data || Bytes < sizeof(int))
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (Attribute == CUSPARSE_SPMAT_FILL_MODE)
    M->Fill = *static_cast<const cusparseFillMode_t *>(Data);
  else if (Attribute == CUSPARSE_SPMAT_DIAG_TYPE)
    M->Diag = *static_cast<const cusparseDiagType_t *>(Data);
  else
    return CUSPARSE_STATUS_INVALID_VALUE;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatGetAttribute(cusparseConstSpMatDescr_t M,
                                           cusparseSpMatAttribute_t Attribute,
                                           void *Data, size_t Bytes) {
  if (!isLive<cusparseSpMatDescr>(M) || !Data || Bytes < sizeof(int))
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (Attribute == CUSPARSE_SPMAT_FILL_MODE)
    *static_cast<cusparseFillMode_t *>(Data) = M->Fill;
  else if (Attribute == CUSPARSE_SPMAT_DIAG_TYPE)
    *static_cast<cusparseDiagType_t *>(Data) = M->Diag;
  else
    return CUSPARSE_STATUS_INVALID_VALUE;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateDnMat(cusparseDnMatDescr_t *D, int64_t Rows,
                                     int64_t Cols, int64_t Ld, void *Values,
                                     cudaDataType Type, cusparseOrder_t Order) {
  int64_t Inner = Order == CUSPARSE_ORDER_ROW ? Cols : Rows;
  if (Rows < 0 || Cols < 0 || Ld < Inner || dataTypeBytes(Type) == 0)
    return CUSPARSE_STATUS_INVALID_VALUE;
  cusparseStatus_t S = create<cusparseDnMatDescr>(D);
  if (S == CUSPARSE_STATUS_SUCCESS)
    **D = {Rows, Cols, Ld, Values, Type, Order};
  return S;
}

cusparseStatus_t cusparseCreateConstDnMat(cusparseConstDnMatDescr_t *D,
                                          int64_t Rows, int64_t Cols,
                                          int64_t Ld, const void *Values,
                                          cudaDataType Type,
                                          cusparseOrder_t Order) {
  cusparseDnMatDescr_t M = nullptr;
  cusparseStatus_t S = cusparseCreateDnMat(
      &M, Rows, Cols, Ld, const_cast<void *>(Values), Type, Order);
  if (S == CUSPARSE_STATUS_SUCCESS && D)
    *D = M;
  return S;
}

cusparseStatus_t cusparseDestroyDnMat(cusparseConstDnMatDescr_t D) {
  return destroy<cusparseDnMatDescr>(D);
}

cusparseStatus_t cusparseSpMM_bufferSize(
    cusparseHandle_t H, cusparseOperation_t, cusparseOperation_t, const void *,
    cusparseConstSpMatDescr_t M, cusparseConstDnMatDescr_t, const void *,
    cusparseDnMatDescr_t, cudaDataType, cusparseSpMMAlg_t, size_t *Bytes) {
  return workspace(H, M, Bytes, 4);
}

cusparseStatus_t cusparseSpMM_preprocess(
    cusparseHandle_t H, cusparseOperation_t, cusparseOperation_t, const void *,
    cusparseConstSpMatDescr_t, cusparseConstDnMatDescr_t, const void *,
    cusparseDnMatDescr_t, cudaDataType, cusparseSpMMAlg_t, void *) {
  return isLive<cusparseContext>(H) ? CUSPARSE_STATUS_SUCCESS
                                    : CUSPARSE_STATUS_NOT_INITIALIZED;
}

// C = alpha op(A) op(B) + beta C, A sparse: one FMA per nonzero and column of
// C; reads A once, the rows of op(B) the nonzeros' columns select (each at
// least once), C unless beta is zero; writes C.
cusparseStatus_t cusparseSpMM(cusparseHandle_t H, cusparseOperation_t OpA,
                              cusparseOperation_t OpB, const void *,
                              cusparseConstSpMatDescr_t M,
                              cusparseConstDnMatDescr_t B, const void *Beta,
                              cusparseDnMatDescr_t C, cudaDataType Compute,
                              cusparseSpMMAlg_t, void *) {
  if (!isLive<cusparseContext>(H))
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!isLive<cusparseSpMatDescr>(M) || !isLive<cusparseDnMatDescr>(B) ||
      !isLive<cusparseDnMatDescr>(C))
    return CUSPARSE_STATUS_INVALID_VALUE;
  bool TransA = OpA != CUSPARSE_OPERATION_NON_TRANSPOSE,
       TransB = OpB != CUSPARSE_OPERATION_NON_TRANSPOSE;
  int64_t Out = TransA ? M->Cols : M->Rows, In = TransA ? M->Rows : M->Cols;
  int64_t BRows = TransB ? B->Cols : B->Rows, N = TransB ? B->Rows : B->Cols;
  if (BRows != In || C->Rows != Out || C->Cols != N)
    return CUSPARSE_STATUS_INVALID_VALUE;
  double Eb = dataTypeBytes(B->Type), Ec = dataTypeBytes(C->Type),
         Nnz = double(M->Nnz), Cols = double(N);
  LibraryWork W;
  W.Routine = "cusparseSpMM";
  W.Key = reinterpret_cast<const void *>(&cusparseSpMM);
  W.Double = Compute == CUDA_R_64F || Compute == CUDA_C_64F;
  W.Fmas = Nnz * Cols;
  W.BytesRead = csrBytes(*M) + std::min(Nnz, double(In)) * Cols * Eb +
                (betaIsZero(H, Beta, Compute) ? 0 : double(Out) * Cols * Ec);
  W.BytesWritten = double(Out) * Cols * Ec;
  W.Threads = std::max(double(Out), Nnz / 4) * std::min(Cols, 32.0);
  return chargeOn(H, W);
}

cusparseStatus_t cusparseSpSV_createDescr(cusparseSpSVDescr_t *D) {
  return create<cusparseSpSVDescr>(D);
}

cusparseStatus_t cusparseSpSV_destroyDescr(cusparseSpSVDescr_t D) {
  return destroy<cusparseSpSVDescr>(D);
}

cusparseStatus_t
cusparseSpSV_bufferSize(cusparseHandle_t H, cusparseOperation_t, const void *,
                        cusparseConstSpMatDescr_t M, cusparseConstDnVecDescr_t,
                        cusparseDnVecDescr_t, cudaDataType, cusparseSpSVAlg_t,
                        cusparseSpSVDescr_t, size_t *Bytes) {
  return workspace(H, M, Bytes, 16); // the level sets
}

// The analysis of a triangular solve: one pass over the matrix building the
// level sets (reads the CSR structure, writes a level and an order per row).
cusparseStatus_t
cusparseSpSV_analysis(cusparseHandle_t H, cusparseOperation_t, const void *,
                      cusparseConstSpMatDescr_t M, cusparseConstDnVecDescr_t,
                      cusparseDnVecDescr_t, cudaDataType Compute,
                      cusparseSpSVAlg_t, cusparseSpSVDescr_t D, void *) {
  if (!isLive<cusparseContext>(H))
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!isLive<cusparseSpMatDescr>(M) || !isLive<cusparseSpSVDescr>(D) ||
      M->Rows != M->Cols)
    return CUSPARSE_STATUS_INVALID_VALUE;
  D->Analysed = M;
  LibraryWork W;
  W.Routine = "cusparseSpSV_analysis";
  W.Key = reinterpret_cast<const void *>(&cusparseSpSV_analysis);
  W.Double = Compute == CUDA_R_64F || Compute == CUDA_C_64F;
  W.IntOps = double(M->Nnz) + double(M->Rows);
  W.BytesRead = csrBytes(*M) - double(M->Nnz) * dataTypeBytes(M->Type);
  W.BytesWritten = 2 * 4 * double(M->Rows);
  W.Threads = double(M->Rows);
  return chargeOn(H, W);
}

// y = alpha op(A)^-1 x, A triangular: one FMA per nonzero (the diagonal a
// division); reads A and x, writes y. The rows of one level run in parallel
// and the levels one after another; how many levels a matrix has is not in
// its descriptor, so the solve is charged as if every row were ready at
// once: a lower bound for matrices with long dependency chains.
cusparseStatus_t cusparseSpSV_solve(cusparseHandle_t H, cusparseOperation_t,
                                    const void *, cusparseConstSpMatDescr_t M,
                                    cusparseConstDnVecDescr_t X,
                                    cusparseDnVecDescr_t Y,
                                    cudaDataType Compute, cusparseSpSVAlg_t,
                                    cusparseSpSVDescr_t D) {
  if (!isLive<cusparseContext>(H))
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!isLive<cusparseSpMatDescr>(M) || !isLive<cusparseDnVecDescr>(X) ||
      !isLive<cusparseDnVecDescr>(Y) || !isLive<cusparseSpSVDescr>(D) ||
      D->Analysed != M || X->Size != M->Rows || Y->Size != M->Rows)
    return CUSPARSE_STATUS_INVALID_VALUE;
  double Rows = double(M->Rows);
  LibraryWork W;
  W.Routine = "cusparseSpSV_solve";
  W.Key = reinterpret_cast<const void *>(&cusparseSpSV_solve);
  W.Double = Compute == CUDA_R_64F || Compute == CUDA_C_64F;
  W.Fmas = double(M->Nnz);
  W.BytesRead = csrBytes(*M) + Rows * dataTypeBytes(X->Type);
  W.BytesWritten = Rows * dataTypeBytes(Y->Type);
  W.Threads = Rows;
  return chargeOn(H, W);
}

} // extern "C"
