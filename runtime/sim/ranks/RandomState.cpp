//===- RandomState.cpp - libc's random number state, one per rank ---------===//
//
// rand/srand, random/srandom and the drand48 family keep one hidden state per
// process. Under MPI every rank is a process of its own: a code that never
// seeds (or seeds every rank alike) gets the same sequence on every rank,
// and codes rely on that -- LLNL's Quicksilver shuffles its domain
// decomposition with unseeded drand48() on every rank and expects all ranks
// to agree. SMPI runs the ranks in one process, so they would share libc's
// state and each draw the next numbers: the decompositions differ and the
// halo messages no longer match (MPI_ERR_TRUNCATE). orrery-cxx links the
// program's calls to these wrappers (LinkWraps.def), which give each rank
// its own state through glibc's reentrant calls, initialised as glibc's
// own: srandom(1) for rand/random, zero for drand48 (its first value is
// 0xB / 2^48, as a fresh process's). Outside a rank actor, libc's.
//
//===----------------------------------------------------------------------===//

#include "RankEnvironment.h"
#include "Runtime.h"

#include <stdlib.h>

#include <cstring>
#include <unordered_map>

using namespace orrery::sim;

namespace {

struct RankRandom {
  random_data Random{};
  char RandomTable[128] = {}; ///< glibc's default TYPE_3 table size
  bool RandomReady = false;
  drand48_data Rand48{};          ///< zeroed: a fresh process's drand48 state
  unsigned short OldSeed[3] = {}; ///< what seed48 returns
};

RankRandom &rankRandom() {
  static std::unordered_map<int, RankRandom> States;
  RankRandom &S = States[Runtime::get().rank().Id];
  if (!S.RandomReady) {
    initstate_r(1, S.RandomTable, sizeof S.RandomTable, &S.Random);
    S.RandomReady = true;
  }
  return S;
}

} // namespace

extern "C" {

long __wrap_random(void) {
  if (!inRankActor())
    return random();
  int32_t V = 0;
  random_r(&rankRandom().Random, &V);
  return V;
}

int __wrap_rand(void) {
  // glibc's rand() is random() (stdlib/rand.c).
  return inRankActor() ? static_cast<int>(__wrap_random()) : rand();
}

void __wrap_srandom(unsigned Seed) {
  if (!inRankActor())
    return srandom(Seed);
  srandom_r(Seed, &rankRandom().Random);
}

void __wrap_srand(unsigned Seed) {
  if (!inRankActor())
    return srand(Seed);
  __wrap_srandom(Seed);
}

double __wrap_drand48(void) {
  if (!inRankActor())
    return drand48();
  double V = 0;
  drand48_r(&rankRandom().Rand48, &V);
  return V;
}

long __wrap_lrand48(void) {
  if (!inRankActor())
    return lrand48();
  long V = 0;
  lrand48_r(&rankRandom().Rand48, &V);
  return V;
}

long __wrap_mrand48(void) {
  if (!inRankActor())
    return mrand48();
  long V = 0;
  mrand48_r(&rankRandom().Rand48, &V);
  return V;
}

void __wrap_srand48(long Seed) {
  if (!inRankActor())
    return srand48(Seed);
  srand48_r(Seed, &rankRandom().Rand48);
}

unsigned short *__wrap_seed48(unsigned short Seed[3]) {
  if (!inRankActor())
    return seed48(Seed);
  // seed48 returns the previous seed from a buffer of its own, per rank.
  RankRandom &S = rankRandom();
  std::memcpy(S.OldSeed, S.Rand48.__x, sizeof S.OldSeed);
  seed48_r(Seed, &S.Rand48);
  return S.OldSeed;
}

void __wrap_lcong48(unsigned short Param[7]) {
  if (!inRankActor())
    return lcong48(Param);
  lcong48_r(Param, &rankRandom().Rand48);
}

} // extern "C"
