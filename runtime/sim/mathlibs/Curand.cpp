//===- Curand.cpp - Skeleton cuRAND: generators ---------------------------===//
//
// cuRAND's host API. A device generator's numbers land in device memory,
// which holds no data in skeleton mode: each curandGenerate* is charged as
// one kernel of a library model (LibraryCall.h): per number, the integer
// work of a counter-based generator (Philox4x32-10: ten rounds of two
// 32-bit multiplies and a few xors per four numbers, taken as 15 integer
// operations), one FMA to scale it, the transcendentals of the distribution
// (Box-Muller: a logarithm and a sine or cosine per number, and a square
// root per pair; log-normal: an exponential more), and the bytes written. A
// host generator (curandCreateGeneratorHost) fills the host buffer with
// numbers of the asked distribution (a 64-bit LCG, not cuRAND's sequence)
// and costs no GPU time.
//
//===----------------------------------------------------------------------===//

#include "LibraryCall.h"

#include <curand.h>

#include <cmath>
#include <cstdint>
#include <set>

struct curandGenerator_st {
  bool Host = false;
  cudaStream_t Stream = nullptr;
  std::uint64_t State = 0x853c49e6748fea9bULL;
};

using orrery::sim::mathlibs::charge;
using orrery::sim::mathlibs::LibraryWork;

namespace {

std::set<curandGenerator_t> &generators() {
  static std::set<curandGenerator_t> G; // ranks: actors of one process
  return G;
}

bool live(curandGenerator_t G) { return G && generators().count(G); }

/// The next number in (0, 1] of a host generator.
double uniform(curandGenerator_t G) {
  G->State = G->State * 6364136223846793005ULL + 1442695040888963407ULL;
  return double((G->State >> 11) + 1) / 9007199254740992.0; // 2^53
}

double normal(curandGenerator_t G, double Mean, double Stddev) {
  double U1 = uniform(G), U2 = uniform(G);
  return Mean + Stddev * std::sqrt(-2 * std::log(U1)) *
                    std::cos(6.283185307179586 * U2);
}

enum class Dist { Bits, Uniform, Normal, LogNormal };

template <typename T>
curandStatus_t generate(curandGenerator_t G, T *Out, size_t N, Dist D,
                        double Mean, double Stddev, const char *Name,
                        const void *Key) {
  if (!live(G))
    return CURAND_STATUS_NOT_INITIALIZED;
  if (!Out && N)
    return CURAND_STATUS_OUT_OF_RANGE;
  if ((D == Dist::Normal || D == Dist::LogNormal) && N % 2)
    return CURAND_STATUS_LENGTH_NOT_MULTIPLE; // cuRAND makes pairs
  if (G->Host) {
    for (size_t I = 0; I < N; ++I) {
      double V = D == Dist::Uniform ? uniform(G)
                 : D == Dist::Bits  ? uniform(G) * 4294967295.0
                                    : normal(G, Mean, Stddev);
      Out[I] = static_cast<T>(D == Dist::LogNormal ? std::exp(V) : V);
    }
    return CURAND_STATUS_SUCCESS;
  }
  if (N == 0)
    return CURAND_STATUS_SUCCESS;
  double Count = double(N);
  LibraryWork W;
  W.Routine = Name;
  W.Key = Key;
  W.Double = sizeof(T) == 8 && D != Dist::Bits;
  W.IntOps = 15 * Count;
  W.Fmas = D == Dist::Bits ? 0 : Count;
  if (D == Dist::Normal || D == Dist::LogNormal) {
    W.Transcendentals = 2 * Count + (D == Dist::LogNormal ? Count : 0);
    W.Sqrts = Count / 2;
  }
  W.BytesWritten = Count * sizeof(T);
  W.Threads = Count / 4; // four numbers per Philox call
  return charge(G->Stream, W) == cudaSuccess ? CURAND_STATUS_SUCCESS
                                             : CURAND_STATUS_LAUNCH_FAILURE;
}

curandStatus_t create(curandGenerator_t *G, curandRngType_t Type, bool Host) {
  if (!G)
    return CURAND_STATUS_NOT_INITIALIZED;
  if (Type != CURAND_RNG_TEST && (Type < CURAND_RNG_PSEUDO_DEFAULT ||
                                  Type > CURAND_RNG_QUASI_SCRAMBLED_SOBOL64))
    return CURAND_STATUS_TYPE_ERROR;
  *G = new curandGenerator_st;
  (*G)->Host = Host;
  generators().insert(*G);
  return CURAND_STATUS_SUCCESS;
}

} // namespace

extern "C" {

curandStatus_t curandCreateGenerator(curandGenerator_t *G,
                                     curandRngType_t Type) {
  return create(G, Type, false);
}

curandStatus_t curandCreateGeneratorHost(curandGenerator_t *G,
                                         curandRngType_t Type) {
  return create(G, Type, true);
}

curandStatus_t curandDestroyGenerator(curandGenerator_t G) {
  if (!live(G))
    return CURAND_STATUS_NOT_INITIALIZED;
  generators().erase(G);
  delete G;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGetVersion(int *Version) {
  if (!Version)
    return CURAND_STATUS_NOT_INITIALIZED;
  *Version = CURAND_VERSION;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetStream(curandGenerator_t G, cudaStream_t S) {
  if (!live(G))
    return CURAND_STATUS_NOT_INITIALIZED;
  G->Stream = S;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t G,
                                                  unsigned long long Seed) {
  if (!live(G))
    return CURAND_STATUS_NOT_INITIALIZED;
  G->State = Seed * 0x9E3779B97F4A7C15ULL + 1;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetGeneratorOffset(curandGenerator_t G,
                                        unsigned long long) {
  return live(G) ? CURAND_STATUS_SUCCESS : CURAND_STATUS_NOT_INITIALIZED;
}

curandStatus_t curandGenerate(curandGenerator_t G, unsigned int *Out,
                              size_t N) {
  return generate(G, Out, N, Dist::Bits, 0, 1, "curandGenerate",
                  reinterpret_cast<const void *>(&curandGenerate));
}

curandStatus_t curandGenerateUniform(curandGenerator_t G, float *Out,
                                     size_t N) {
  return generate(G, Out, N, Dist::Uniform, 0, 1, "curandGenerateUniform",
                  reinterpret_cast<const void *>(&curandGenerateUniform));
}

curandStatus_t curandGenerateUniformDouble(curandGenerator_t G, double *Out,
                                           size_t N) {
  return generate(G, Out, N, Dist::Uniform, 0, 1, "curandGenerateUniformDouble",
                  reinterpret_cast<const void *>(&curandGenerateUniformDouble));
}

curandStatus_t curandGenerateNormal(curandGenerator_t G, float *Out, size_t N,
                                    float Mean, float Stddev) {
  return generate(G, Out, N, Dist::Normal, Mean, Stddev, "curandGenerateNormal",
                  reinterpret_cast<const void *>(&curandGenerateNormal));
}

curandStatus_t curandGenerateNormalDouble(curandGenerator_t G, double *Out,
                                          size_t N, double Mean,
                                          double Stddev) {
  return generate(G, Out, N, Dist::Normal, Mean, Stddev,
                  "curandGenerateNormalDouble",
                  reinterpret_cast<const void *>(&curandGenerateNormalDouble));
}

curandStatus_t curandGenerateLogNormal(curandGenerator_t G, float *Out,
                                       size_t N, float Mean, float Stddev) {
  return generate(G, Out, N, Dist::LogNormal, Mean, Stddev,
                  "curandGenerateLogNormal",
                  reinterpret_cast<const void *>(&curandGenerateLogNormal));
}

curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t G, double *Out,
                                             size_t N, double Mean,
                                             double Stddev) {
  return generate(
      G, Out, N, Dist::LogNormal, Mean, Stddev, "curandGenerateLogNormalDouble",
      reinterpret_cast<const void *>(&curandGenerateLogNormalDouble));
}

} // extern "C"
