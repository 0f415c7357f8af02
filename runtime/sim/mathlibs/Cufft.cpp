//===- Cufft.cpp - Skeleton cuFFT: plans and transforms -------------------===//
//
// cuFFT's plans (handles are ints, as cuFFT's) keep the transform's sizes,
// type and stream; each cufftExec* is charged as one kernel of a library
// model (LibraryCall.h; docs/kernel-cost.md#math-libraries): 5 N log2 N
// flops per complex transform of N points (2.5 N log2 N for real ones), and
// the data read and written once per pass, a pass per dimension and per
// factor of 4096 points (what one kernel's shared memory transforms).
//
//===----------------------------------------------------------------------===//

#include "LibraryCall.h"

#include <cufft.h>

#include <cmath>
#include <map>
#include <vector>

using orrery::sim::mathlibs::charge;
using orrery::sim::mathlibs::LibraryWork;

namespace {

struct Plan {
  std::vector<long long> Dims; ///< empty until made
  long long Batch = 1;
  cufftType Type = CUFFT_C2C;
  cudaStream_t Stream = nullptr;
};

// Ranks are SimGrid actors of one process that run one at a time.
std::map<cufftHandle, Plan> &plans() {
  static std::map<cufftHandle, Plan> P;
  return P;
}

Plan *find(cufftHandle H) {
  auto It = plans().find(H);
  return It == plans().end() ? nullptr : &It->second;
}

bool known(cufftType T) {
  switch (T) {
  case CUFFT_C2C:
  case CUFFT_R2C:
  case CUFFT_C2R:
  case CUFFT_Z2Z:
  case CUFFT_D2Z:
  case CUFFT_Z2D:
    return true;
  }
  return false;
}

bool isDouble(cufftType T) {
  return T == CUFFT_Z2Z || T == CUFFT_D2Z || T == CUFFT_Z2D;
}
bool isComplex(cufftType T) { return T == CUFFT_C2C || T == CUFFT_Z2Z; }

double points(const Plan &P) {
  double N = 1;
  for (long long D : P.Dims)
    N *= double(D);
  return N;
}

/// Passes over the data: one per dimension and per factor of 4096 points.
double passes(const Plan &P) {
  double Passes = 0;
  for (long long D : P.Dims)
    Passes += D > 1 ? std::ceil(std::log2(double(D)) / 12) : 0;
  return std::max(Passes, 1.0);
}

cufftResult make(cufftHandle H, std::vector<long long> Dims, cufftType Type,
                 long long Batch, size_t *Work) {
  Plan *P = find(H);
  if (!P)
    return CUFFT_INVALID_PLAN;
  if (!known(Type))
    return CUFFT_INVALID_TYPE;
  for (long long D : Dims)
    if (D < 1)
      return CUFFT_INVALID_SIZE;
  if (Batch < 1)
    return CUFFT_INVALID_SIZE;
  P->Dims = std::move(Dims);
  P->Type = Type;
  P->Batch = Batch;
  // A multi-pass transform works out of place: a scratch copy of the data.
  if (Work)
    *Work = passes(*P) > 1 ? static_cast<size_t>(points(*P) * double(Batch) *
                                                 (isDouble(Type) ? 16 : 8))
                           : 0;
  return CUFFT_SUCCESS;
}

cufftResult newPlan(cufftHandle *H) {
  if (!H)
    return CUFFT_INVALID_VALUE;
  static cufftHandle Next = 1;
  *H = Next++;
  plans()[*H] = Plan();
  return CUFFT_SUCCESS;
}

std::vector<long long> dimsOf(int Rank, const int *N) {
  std::vector<long long> D;
  for (int I = 0; I < Rank && N; ++I)
    D.push_back(N[I]);
  return D;
}

cufftResult exec(cufftHandle H, cufftType Type, const char *Name,
                 const void *Key) {
  Plan *P = find(H);
  if (!P || P->Dims.empty())
    return CUFFT_INVALID_PLAN;
  if (P->Type != Type)
    return CUFFT_INVALID_TYPE;
  double N = points(*P), B = double(P->Batch);
  double Complex = isComplex(Type);
  // Bytes of one point's data: a complex value, or for real transforms a
  // real one (N reals in, N/2 + 1 complex values out).
  double Bytes = (isDouble(Type) ? 8 : 4) * (Complex ? 2 : 1);
  LibraryWork W;
  W.Routine = Name;
  W.Key = Key;
  W.Double = isDouble(Type);
  W.Adds = (Complex ? 5 : 2.5) * N * std::log2(std::max(N, 2.0)) * B;
  W.BytesRead = passes(*P) * N * B * Bytes;
  W.BytesWritten = W.BytesRead;
  W.Threads = N * B / 8; // radix-8 butterflies: 8 points a thread
  return charge(P->Stream, W) == cudaSuccess ? CUFFT_SUCCESS
                                             : CUFFT_EXEC_FAILED;
}

} // namespace

extern "C" {

cufftResult cufftCreate(cufftHandle *H) { return newPlan(H); }

cufftResult cufftDestroy(cufftHandle H) {
  return plans().erase(H) ? CUFFT_SUCCESS : CUFFT_INVALID_PLAN;
}

cufftResult cufftGetVersion(int *Version) {
  if (!Version)
    return CUFFT_INVALID_VALUE;
  *Version = CUFFT_VERSION;
  return CUFFT_SUCCESS;
}

cufftResult cufftSetStream(cufftHandle H, cudaStream_t S) {
  Plan *P = find(H);
  if (!P)
    return CUFFT_INVALID_PLAN;
  P->Stream = S;
  return CUFFT_SUCCESS;
}

cufftResult cufftSetAutoAllocation(cufftHandle H, int) {
  return find(H) ? CUFFT_SUCCESS : CUFFT_INVALID_PLAN;
}

cufftResult cufftSetWorkArea(cufftHandle H, void *) {
  return find(H) ? CUFFT_SUCCESS : CUFFT_INVALID_PLAN;
}

cufftResult cufftMakePlan1d(cufftHandle H, int Nx, cufftType T, int Batch,
                            size_t *Work) {
  return make(H, {Nx}, T, Batch, Work);
}

cufftResult cufftMakePlan2d(cufftHandle H, int Nx, int Ny, cufftType T,
                            size_t *Work) {
  return make(H, {Nx, Ny}, T, 1, Work);
}

cufftResult cufftMakePlan3d(cufftHandle H, int Nx, int Ny, int Nz, cufftType T,
                            size_t *Work) {
  return make(H, {Nx, Ny, Nz}, T, 1, Work);
}

cufftResult cufftMakePlanMany(cufftHandle H, int Rank, int *N, int *, int, int,
                              int *, int, int, cufftType T, int Batch,
                              size_t *Work) {
  if (Rank < 1 || Rank > 3 || !N)
    return CUFFT_INVALID_VALUE;
  return make(H, dimsOf(Rank, N), T, Batch, Work);
}

cufftResult cufftPlan1d(cufftHandle *H, int Nx, cufftType T, int Batch) {
  cufftResult R = newPlan(H);
  return R == CUFFT_SUCCESS ? make(*H, {Nx}, T, Batch, nullptr) : R;
}

cufftResult cufftPlan2d(cufftHandle *H, int Nx, int Ny, cufftType T) {
  cufftResult R = newPlan(H);
  return R == CUFFT_SUCCESS ? make(*H, {Nx, Ny}, T, 1, nullptr) : R;
}

cufftResult cufftPlan3d(cufftHandle *H, int Nx, int Ny, int Nz, cufftType T) {
  cufftResult R = newPlan(H);
  return R == CUFFT_SUCCESS ? make(*H, {Nx, Ny, Nz}, T, 1, nullptr) : R;
}

cufftResult cufftPlanMany(cufftHandle *H, int Rank, int *N, int *Inembed,
                          int Istride, int Idist, int *Onembed, int Ostride,
                          int Odist, cufftType T, int Batch) {
  cufftResult R = newPlan(H);
  return R == CUFFT_SUCCESS
             ? cufftMakePlanMany(*H, Rank, N, Inembed, Istride, Idist, Onembed,
                                 Ostride, Odist, T, Batch, nullptr)
             : R;
}

cufftResult cufftGetSize(cufftHandle H, size_t *Work) {
  Plan *P = find(H);
  if (!P)
    return CUFFT_INVALID_PLAN;
  if (!Work)
    return CUFFT_INVALID_VALUE;
  *Work = P->Dims.empty() || passes(*P) <= 1
              ? 0
              : static_cast<size_t>(points(*P) * double(P->Batch) *
                                    (isDouble(P->Type) ? 16 : 8));
  return CUFFT_SUCCESS;
}

cufftResult cufftExecC2C(cufftHandle H, cufftComplex *, cufftComplex *, int) {
  return exec(H, CUFFT_C2C, "cufftExecC2C",
              reinterpret_cast<const void *>(&cufftExecC2C));
}
cufftResult cufftExecR2C(cufftHandle H, cufftReal *, cufftComplex *) {
  return exec(H, CUFFT_R2C, "cufftExecR2C",
              reinterpret_cast<const void *>(&cufftExecR2C));
}
cufftResult cufftExecC2R(cufftHandle H, cufftComplex *, cufftReal *) {
  return exec(H, CUFFT_C2R, "cufftExecC2R",
              reinterpret_cast<const void *>(&cufftExecC2R));
}
cufftResult cufftExecZ2Z(cufftHandle H, cufftDoubleComplex *,
                         cufftDoubleComplex *, int) {
  return exec(H, CUFFT_Z2Z, "cufftExecZ2Z",
              reinterpret_cast<const void *>(&cufftExecZ2Z));
}
cufftResult cufftExecD2Z(cufftHandle H, cufftDoubleReal *,
                         cufftDoubleComplex *) {
  return exec(H, CUFFT_D2Z, "cufftExecD2Z",
              reinterpret_cast<const void *>(&cufftExecD2Z));
}
cufftResult cufftExecZ2D(cufftHandle H, cufftDoubleComplex *,
                         cufftDoubleReal *) {
  return exec(H, CUFFT_Z2D, "cufftExecZ2D",
              reinterpret_cast<const void *>(&cufftExecZ2D));
}

} // extern "C"
