//===- LibraryCall.cpp - A math-library call charged as a kernel ----------===//

#include "LibraryCall.h"

#include "cuda/CudaCommon.h"
#include "gpu/LibraryKernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace orrery::sim::mathlibs {

namespace {

orrery_kernel_counts countsOf(const LibraryWork &W, double Threads) {
  orrery_kernel_counts C = emptyCounts();
  // Every launched thread is active; the counts per thread are the
  // operation's totals shared among them, the footprints the totals.
  C.threads_launched = Threads;
  C.active_threads = Threads;
  (W.Double ? C.fp64_fma : C.fp32_fma) = W.Fmas / Threads;
  (W.Double ? C.fp64_add : C.fp32_add) = W.Adds / Threads;
  (W.Double ? C.fp64_mul : C.fp32_mul) = W.Muls / Threads;
  (W.Double ? C.fp64_sqrt : C.fp32_sqrt) = W.Sqrts / Threads;
  (W.Double ? C.fp64_transc : C.fp32_transc) = W.Transcendentals / Threads;
  C.int_ops = W.IntOps / Threads;
  (W.Double ? C.fp64_mma : C.fp32_mma) = W.MatrixFmas / Threads;
  C.fp16_mma = W.HalfMatrixFmas / Threads;
  C.load_bytes = W.BytesRead / Threads;
  C.store_bytes = W.BytesWritten / Threads;
  C.load_footprint = W.BytesRead;
  C.store_footprint = W.BytesWritten;
  // A model of the library, not an analysis of its code.
  C.confidence = ORRERY_CONFIDENCE_DEFAULTED;
  return C;
}

/// The site of the call being charged: the innermost open site, when the
/// instrumenter rewrote this very call (its table row names the routine).
const orrery_site *callSite(const Rank &R, const char *Routine) {
  if (R.Open.empty() || !R.Open.back().Site || !R.Open.back().Site->api)
    return nullptr;
  const orrery_site *S = R.Open.back().Site;
  return std::strcmp(S->api, Routine) == 0 ? S : nullptr;
}

} // namespace

double dataTypeBytes(cudaDataType T) {
  switch (T) {
  case CUDA_R_8I:
  case CUDA_R_8U:
    return 1;
  case CUDA_R_16F:
  case CUDA_R_16BF:
    return 2;
  case CUDA_R_32F:
  case CUDA_R_32I:
  case CUDA_C_16F:
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

cudaError_t charge(cudaStream_t Handle, const LibraryWork &W, bool Wait) {
  Rank &R = callingRank();
  Stream *S = resolveStream(R, Handle);
  if (!S)
    return fail(R, cudaErrorInvalidResourceHandle);
  constexpr unsigned Block = 256;
  double Blocks = std::clamp(std::ceil(W.Threads / Block), 1.0, 2147483647.0);
  PendingLaunch P;
  P.Site = callSite(R, W.Routine);
  P.HasCounts = true;
  P.Counts = countsOf(W, Blocks * Block);
  P.Name = W.Routine;
  P.Hint = "library";
  StreamOp Op;
  dim3 Grid(static_cast<unsigned>(Blocks)), BlockDim(Block);
  if (cudaError_t E = kernelOp(R, P, W.Key, Grid, BlockDim, nullptr, 0, true,
                               S->Capture != nullptr, Op))
    return fail(R, E);
  Completion Done = submit(R, *S, std::move(Op));
  if (Wait)
    waitFor(Done);
  return cudaSuccess;
}

} // namespace orrery::sim::mathlibs
