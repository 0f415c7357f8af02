//===- Cublas.cpp - Skeleton cuBLAS: handles and library models -----------===//
//
// The cuBLAS calls codes make, answered without a GPU: handles, streams and
// pointer modes as cuBLAS keeps them; each computing call charged as one
// kernel of its flops and compulsory bytes (LibraryCall.h). A result cuBLAS
// returns to host memory (DOT, NRM2 in host pointer mode) makes the host wait
// for it and is a device read: the value comes from --device-value or a
// schedule at the call's site, as for a copy (docs/simulate.md).
//
//===----------------------------------------------------------------------===//

#include "LibraryCall.h"

#include "cuda/CudaCommon.h"
#include "values/DeviceValues.h"

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <set>

struct cublasContext {
  cudaStream_t Stream = nullptr;
  cublasPointerMode_t PointerMode = CUBLAS_POINTER_MODE_HOST;
  cublasMath_t Math = CUBLAS_DEFAULT_MATH;
};

using namespace orrery::sim;
using orrery::sim::mathlibs::charge;
using orrery::sim::mathlibs::dataTypeBytes;
using orrery::sim::mathlibs::LibraryWork;

namespace {

// Ranks are SimGrid actors of one process that run one at a time.
std::set<cublasHandle_t> &handles() {
  static std::set<cublasHandle_t> H;
  return H;
}

bool live(cublasHandle_t H) { return H && handles().count(H); }

cublasStatus_t status(cudaError_t E) {
  return E == cudaSuccess ? CUBLAS_STATUS_SUCCESS
                          : CUBLAS_STATUS_EXECUTION_FAILED;
}

/// Whether a scalar argument (alpha, beta) is zero: read in host pointer
/// mode; in device pointer mode it is data the simulation does not have,
/// taken as non-zero (the operation reads its input).
template <typename T> bool isZero(cublasHandle_t H, const T *V) {
  return H->PointerMode == CUBLAS_POINTER_MODE_HOST && V && *V == T(0);
}

/// A handle's setting: cublasGet*(H, Out) and cublasSet*(H, V) for it.
template <typename T>
cublasStatus_t get(cublasHandle_t H, T *Out, T cublasContext::*Field) {
  if (!live(H))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!Out)
    return CUBLAS_STATUS_INVALID_VALUE;
  *Out = H->*Field;
  return CUBLAS_STATUS_SUCCESS;
}

template <typename T>
cublasStatus_t set(cublasHandle_t H, T Value, T cublasContext::*Field) {
  if (!live(H))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  H->*Field = Value;
  return CUBLAS_STATUS_SUCCESS;
}

template <typename T>
cublasStatus_t run(cublasHandle_t H, LibraryWork W, bool HostResult = false,
                   void *Result = nullptr) {
  W.Double = sizeof(T) == 8;
  bool Wait = HostResult && H->PointerMode == CUBLAS_POINTER_MODE_HOST;
  if (cudaError_t E = charge(H->Stream, W, Wait))
    return status(E);
  if (Wait && Result)
    deviceRead(callingRank(), Result, sizeof(T));
  return CUBLAS_STATUS_SUCCESS;
}

/// Where a GEMM-like routine's multiply-adds run.
enum class Unit { Cores, MatrixCores, HalfMatrixCores };

/// Whether the handle's math mode lets FP32 run on the tensor cores as TF32.
bool tf32Math(cublasHandle_t H) {
  return (H->Math & 0xf) == CUBLAS_TF32_TENSOR_OP_MATH;
}

/// cuBLAS runs FP64 on the FP64 tensor cores (DMMA) where the GPU has them,
/// and FP32 on them (as TF32) when the handle's math mode allows it.
template <typename T> Unit unitOf(cublasHandle_t H) {
  return sizeof(T) == 8 || tf32Math(H) ? Unit::MatrixCores : Unit::Cores;
}

/// The work of \p Fmas multiply-adds on \p U reading \p Read and writing
/// \p Written bytes of an M x N output, in 128 x 128 tiles of it, one block
/// of 256 threads each (what cuBLAS's GEMM kernels do).
LibraryWork tiledWork(const char *Name, const void *Key, double M, double N,
                      double Fmas, Unit U, double Read, double Written) {
  LibraryWork W;
  W.Routine = Name;
  W.Key = Key;
  (U == Unit::HalfMatrixCores ? W.HalfMatrixFmas
   : U == Unit::MatrixCores   ? W.MatrixFmas
                              : W.Fmas) = Fmas;
  W.BytesRead = Read;
  W.BytesWritten = Written;
  W.Threads = std::ceil(M / 128.0) * std::ceil(N / 128.0) * 256;
  return W;
}

/// C = alpha op(A) op(B) + beta C: M N K multiply-adds; reads A (M x K, \p Ea
/// bytes an element), B (K x N, \p Eb) and C unless beta is 0, writes C
/// (\p Ec).
LibraryWork gemmWork(const char *Name, const void *Key, int M, int N, int K,
                     double Ea, double Eb, double Ec, bool BetaZero, Unit U) {
  double Mn = double(M) * N;
  return tiledWork(Name, Key, M, N, Mn * K, U,
                   double(M) * K * Ea + double(K) * N * Eb +
                       (BetaZero ? 0 : Mn * Ec),
                   Mn * Ec);
}

template <typename T>
cublasStatus_t gemm(const char *Name, const void *Key, cublasHandle_t H, int M,
                    int N, int K, const T *Beta) {
  if (!live(H))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (M < 0 || N < 0 || K < 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (M == 0 || N == 0)
    return CUBLAS_STATUS_SUCCESS;
  double E = sizeof(T);
  return run<T>(
      H, gemmWork(Name, Key, M, N, K, E, E, E, isZero(H, Beta), unitOf<T>(H)));
}

/// TRSM: B = alpha op(A)^-1 B, A triangular (M x M on the left, N x N on
/// the right). Per right-hand side, one FMA per element of the triangle
/// (N(N+1)/2 of them, the diagonal a division); reads the triangle and B,
/// writes B. cuBLAS blocks the triangle into GEMMs, which run where GEMM's
/// do.
template <typename T>
cublasStatus_t trsm(const char *Name, const void *Key, cublasHandle_t H,
                    cublasSideMode_t Side, int M, int N) {
  if (!live(H))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (M < 0 || N < 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (M == 0 || N == 0)
    return CUBLAS_STATUS_SUCCESS;
  double E = sizeof(T), Order = Side == CUBLAS_SIDE_LEFT ? M : N,
         Rhs = Side == CUBLAS_SIDE_LEFT ? N : M, B = double(M) * N;
  double Triangle = Order * (Order + 1) / 2;
  return run<T>(H, tiledWork(Name, Key, M, N, Triangle * Rhs, unitOf<T>(H),
                             (Triangle + B) * E, B * E));
}

template <typename T>
cublasStatus_t gemv(const char *Name, const void *Key, cublasHandle_t H,
                    cublasOperation_t Trans, int M, int N, const T *Beta) {
  if (!live(H))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (M < 0 || N < 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  double E = sizeof(T), Out = Trans == CUBLAS_OP_N ? M : N,
         In = Trans == CUBLAS_OP_N ? N : M;
  LibraryWork W;
  W.Routine = Name;
  W.Key = Key;
  W.Fmas = double(M) * N;
  W.BytesRead = (double(M) * N + In + (isZero(H, Beta) ? 0 : Out)) * E;
  W.BytesWritten = Out * E;
  W.Threads = std::max(Out, double(M) * N / 32); // a warp per 32 elements
  return run<T>(H, W);
}

/// A level-1 routine over \p N elements: \p Reads and \p Writes vectors,
/// per element \p Fmas, \p Muls; \p Result a scalar returned.
template <typename T>
cublasStatus_t level1(const char *Name, const void *Key, cublasHandle_t H,
                      int N, double Reads, double Writes, double Fmas,
                      double Muls, T *Result = nullptr, double Sqrts = 0) {
  if (!live(H))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (N <= 0) {
    if (Result && H->PointerMode == CUBLAS_POINTER_MODE_HOST)
      *Result = T(0);
    return CUBLAS_STATUS_SUCCESS;
  }
  double E = sizeof(T);
  LibraryWork W;
  W.Routine = Name;
  W.Key = Key;
  W.Fmas = Fmas * N;
  W.Muls = Muls * N;
  W.Sqrts = Sqrts;
  W.BytesRead = Reads * N * E;
  W.BytesWritten = Result ? E : Writes * N * E;
  W.Threads = N;
  return run<T>(H, W, Result != nullptr, Result);
}

} // namespace

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t *Handle) {
  if (!Handle)
    return CUBLAS_STATUS_INVALID_VALUE;
  *Handle = new cublasContext;
  handles().insert(*Handle);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t H) {
  if (!live(H))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  handles().erase(H);
  delete H;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetVersion_v2(cublasHandle_t, int *Version) {
  if (!Version)
    return CUBLAS_STATUS_INVALID_VALUE;
  *Version = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t H, cudaStream_t S) {
  return set(H, S, &cublasContext::Stream);
}

cublasStatus_t cublasGetStream_v2(cublasHandle_t H, cudaStream_t *S) {
  return get(H, S, &cublasContext::Stream);
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t H,
                                       cublasPointerMode_t Mode) {
  if (Mode != CUBLAS_POINTER_MODE_HOST && Mode != CUBLAS_POINTER_MODE_DEVICE)
    return live(H) ? CUBLAS_STATUS_INVALID_VALUE
                   : CUBLAS_STATUS_NOT_INITIALIZED;
  return set(H, Mode, &cublasContext::PointerMode);
}

cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t H,
                                       cublasPointerMode_t *Mode) {
  return get(H, Mode, &cublasContext::PointerMode);
}

cublasStatus_t cublasSetMathMode(cublasHandle_t H, cublasMath_t Mode) {
  return set(H, Mode, &cublasContext::Math);
}

cublasStatus_t cublasGetMathMode(cublasHandle_t H, cublasMath_t *Mode) {
  return get(H, Mode, &cublasContext::Math);
}

const char *cublasGetStatusName(cublasStatus_t S) {
  switch (S) {
  case CUBLAS_STATUS_SUCCESS:
    return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_ALLOC_FAILED:
    return "CUBLAS_STATUS_ALLOC_FAILED";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_EXECUTION_FAILED:
    return "CUBLAS_STATUS_EXECUTION_FAILED";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "CUBLAS_STATUS_NOT_SUPPORTED";
  default:
    return "CUBLAS_STATUS_UNKNOWN";
  }
}

const char *cublasGetStatusString(cublasStatus_t S) {
  switch (S) {
  case CUBLAS_STATUS_SUCCESS:
    return "success";
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "the library was not initialized";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "an invalid numeric value was used as an argument";
  case CUBLAS_STATUS_EXECUTION_FAILED:
    return "the GPU program failed to execute";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "the functionality requested is not supported";
  default:
    return "unknown error";
  }
}

// Copies between host and device: cudaMemcpy2D over the strided elements.
// A vector is a matrix of one-element columns, its increment the leading
// dimension.
static cublasStatus_t copyMatrix(int Rows, int Cols, int Size, const void *A,
                                 int Lda, void *B, int Ldb, cudaMemcpyKind K) {
  if (Rows < 0 || Cols < 0 || Size <= 0 || Lda < std::max(1, Rows) ||
      Ldb < std::max(1, Rows))
    return CUBLAS_STATUS_INVALID_VALUE;
  return status(cudaMemcpy2D(B, size_t(Ldb) * Size, A, size_t(Lda) * Size,
                             size_t(Rows) * Size, Cols, K));
}

cublasStatus_t cublasSetVector(int N, int Size, const void *X, int IncX,
                               void *Y, int IncY) {
  return copyMatrix(1, N, Size, X, IncX, Y, IncY, cudaMemcpyHostToDevice);
}

cublasStatus_t cublasGetVector(int N, int Size, const void *X, int IncX,
                               void *Y, int IncY) {
  return copyMatrix(1, N, Size, X, IncX, Y, IncY, cudaMemcpyDeviceToHost);
}

cublasStatus_t cublasSetMatrix(int Rows, int Cols, int Size, const void *A,
                               int Lda, void *B, int Ldb) {
  return copyMatrix(Rows, Cols, Size, A, Lda, B, Ldb, cudaMemcpyHostToDevice);
}

cublasStatus_t cublasGetMatrix(int Rows, int Cols, int Size, const void *A,
                               int Lda, void *B, int Ldb) {
  return copyMatrix(Rows, Cols, Size, A, Lda, B, Ldb, cudaMemcpyDeviceToHost);
}

// Levels 1 to 3. Per element: AXPY reads x and y, writes y, one FMA; DOT reads
// x and y, one FMA; NRM2 reads x, one FMA, one square root in all; SCAL reads
// and writes x, one multiply; COPY reads x, writes y.
#define ORRERY_CUBLAS_ROUTINES(P, T)                                           \
  cublasStatus_t cublas##P##axpy_v2(cublasHandle_t H, int N, const T *,        \
                                    const T *, int, T *, int) {                \
    return level1<T>("cublas" #P "axpy", (const void *)&cublas##P##axpy_v2, H, \
                     N, 2, 1, 1, 0);                                           \
  }                                                                            \
  cublasStatus_t cublas##P##dot_v2(cublasHandle_t H, int N, const T *, int,    \
                                   const T *, int, T *Result) {                \
    return level1<T>("cublas" #P "dot", (const void *)&cublas##P##dot_v2, H,   \
                     N, 2, 0, 1, 0, Result);                                   \
  }                                                                            \
  cublasStatus_t cublas##P##nrm2_v2(cublasHandle_t H, int N, const T *, int,   \
                                    T *Result) {                               \
    return level1<T>("cublas" #P "nrm2", (const void *)&cublas##P##nrm2_v2, H, \
                     N, 1, 0, 1, 0, Result, 1);                                \
  }                                                                            \
  cublasStatus_t cublas##P##scal_v2(cublasHandle_t H, int N, const T *, T *,   \
                                    int) {                                     \
    return level1<T>("cublas" #P "scal", (const void *)&cublas##P##scal_v2, H, \
                     N, 1, 1, 0, 1);                                           \
  }                                                                            \
  cublasStatus_t cublas##P##copy_v2(cublasHandle_t H, int N, const T *, int,   \
                                    T *, int) {                                \
    return level1<T>("cublas" #P "copy", (const void *)&cublas##P##copy_v2, H, \
                     N, 1, 1, 0, 0);                                           \
  }                                                                            \
  cublasStatus_t cublas##P##gemv_v2(cublasHandle_t H, cublasOperation_t Op,    \
                                    int M, int N, const T *, const T *, int,   \
                                    const T *, int, const T *Beta, T *, int) { \
    return gemv<T>("cublas" #P "gemv", (const void *)&cublas##P##gemv_v2, H,   \
                   Op, M, N, Beta);                                            \
  }                                                                            \
  cublasStatus_t cublas##P##gemm_v2(cublasHandle_t H, cublasOperation_t,       \
                                    cublasOperation_t, int M, int N, int K,    \
                                    const T *, const T *, int, const T *, int, \
                                    const T *Beta, T *, int) {                 \
    return gemm<T>("cublas" #P "gemm", (const void *)&cublas##P##gemm_v2, H,   \
                   M, N, K, Beta);                                             \
  }                                                                            \
  cublasStatus_t cublas##P##trsm_v2(cublasHandle_t H, cublasSideMode_t Side,   \
                                    cublasFillMode_t, cublasOperation_t,       \
                                    cublasDiagType_t, int M, int N, const T *, \
                                    const T *, int, T *, int) {                \
    return trsm<T>("cublas" #P "trsm", (const void *)&cublas##P##trsm_v2, H,   \
                   Side, M, N);                                                \
  }
ORRERY_CUBLAS_ROUTINES(S, float)
ORRERY_CUBLAS_ROUTINES(D, double)
#undef ORRERY_CUBLAS_ROUTINES

// GEMM in mixed precision: the inputs' and output's own widths; half and
// bfloat16 inputs on the FP16 tensor cores, FP32 compute types that allow
// TF32 (or the handle's TF32 math mode) on the TF32 ones, FP64 on the FP64
// ones; beta read in the compute type (host pointer mode).
cublasStatus_t cublasGemmEx(cublasHandle_t H, cublasOperation_t,
                            cublasOperation_t, int M, int N, int K,
                            const void *, const void *, cudaDataType Atype, int,
                            const void *, cudaDataType Btype, int,
                            const void *Beta, void *, cudaDataType Ctype, int,
                            cublasComputeType_t Compute, cublasGemmAlgo_t) {
  if (!live(H))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  double Ea = dataTypeBytes(Atype), Eb = dataTypeBytes(Btype),
         Ec = dataTypeBytes(Ctype);
  if (M < 0 || N < 0 || K < 0 || !Ea || !Eb || !Ec)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (M == 0 || N == 0)
    return CUBLAS_STATUS_SUCCESS;
  bool Double =
      Compute == CUBLAS_COMPUTE_64F || Compute == CUBLAS_COMPUTE_64F_PEDANTIC;
  bool Half = Ea == 2 && Eb == 2;
  bool Tf32 = Compute == CUBLAS_COMPUTE_32F_FAST_TF32 ||
              Compute == CUBLAS_COMPUTE_32F_FAST_16F ||
              Compute == CUBLAS_COMPUTE_32F_FAST_16BF || tf32Math(H);
  bool BetaZero = false;
  if (H->PointerMode == CUBLAS_POINTER_MODE_HOST && Beta)
    BetaZero = Double ? *static_cast<const double *>(Beta) == 0
               : Compute == CUBLAS_COMPUTE_16F ||
                       Compute == CUBLAS_COMPUTE_16F_PEDANTIC
                   ? *static_cast<const unsigned short *>(Beta) == 0
                   : *static_cast<const float *>(Beta) == 0;
  static const char Key = 0; // cublas_v2.h overloads cublasGemmEx in C++
  LibraryWork W = gemmWork("cublasGemmEx", &Key, M, N, K, Ea, Eb, Ec, BetaZero,
                           Half             ? Unit::HalfMatrixCores
                           : Double || Tf32 ? Unit::MatrixCores
                                            : Unit::Cores);
  W.Double = Double;
  return status(charge(H->Stream, W));
}

} // extern "C"
