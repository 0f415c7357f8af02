//===- LibraryCall.h - A math-library call charged as a kernel --*- C++ -*-===//
//
// Skeleton mode answers cuBLAS, cuSPARSE, cuFFT and cuRAND calls itself
// (liborrery-sim-mathlibs). A call that computes is charged as one kernel
// on the stream its handle is bound to: a library model of the operation's
// work -- flops and the bytes it must move, from the call's dimensions and
// the descriptors' sizes -- given to the same kernel cost model as a hinted
// kernel (docs/kernel-cost.md#math-libraries). The report lists it under the
// routine's name at the call's site.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_MATHLIBS_LIBRARYCALL_H
#define ORRERY_SIM_MATHLIBS_LIBRARYCALL_H

#include <cuda_runtime_api.h>
#include <library_types.h>

namespace orrery::sim::mathlibs {

/// The work of one library call, launch totals.
struct LibraryWork {
  const char *Routine = "";  ///< "cublasDgemm", as the report names it
  const void *Key = nullptr; ///< one report row per routine and site
  bool Double = true;        ///< FP64 (else FP32) arithmetic
  double Fmas = 0, Adds = 0, Muls = 0, Sqrts = 0;
  double Transcendentals = 0, IntOps = 0;
  /// FMAs on the tensor cores (FP64, or TF32 for FP32 data).
  double MatrixFmas = 0;
  /// FMAs on the FP16 tensor cores (half or bfloat16 inputs).
  double HalfMatrixFmas = 0;
  double BytesRead = 0, BytesWritten = 0; ///< compulsory traffic
  /// Threads the library would launch (its parallel decomposition), in
  /// blocks of 256.
  double Threads = 1;
};

/// Charges \p W as one kernel on \p Stream of the calling rank: the host
/// pays a launch, the stream runs the kernel after its earlier work. With
/// \p Wait the host then waits for it (a result returned to host memory).
cudaError_t charge(cudaStream_t Stream, const LibraryWork &W,
                   bool Wait = false);

/// Bytes of one element of \p T (half, bfloat16, float, double, their
/// complex forms, 8- and 32-bit integers); 0 for a type the models do not
/// know.
double dataTypeBytes(cudaDataType T);

/// Elements of a strided vector of \p N: what a call touches.
inline double elements(long long N) { return N > 0 ? double(N) : 0; }

} // namespace orrery::sim::mathlibs

#endif
