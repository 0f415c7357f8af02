//===- LinkWraps.cpp - libc and C++ calls a skeleton program is linked to --===//
//
// orrery-cxx links skeleton programs with -Wl,--wrap=SYMBOL for the symbols
// below (tool/orrery-cxx/SkeletonLink.cpp lists them), so the program's own
// calls reach these functions while libraries keep the real ones. This does
// at link time what SMPI's smpi_helpers.h does with macros, without macros:
// a macro named malloc or exit breaks libcu++ (cuda::std::malloc), class
// members named free, std::exit and the like.
//
// - sleep, usleep, nanosleep, gettimeofday, clock_gettime, MPI_Wtime:
//   simulated time, clock reads in a polling loop charged as Polling.h says;
// - getopt, getopt_long, getopt_long_only: one parser state per rank;
// - exit: ends the calling rank, not the simulation; getpid: per rank;
// - getenv: launcher variables per rank (RankEnvironment.h);
// - MPI_Abort: recorded, so the run ends as failed with the abort's code;
// - MPI_Comm_split_type(MPI_COMM_TYPE_SHARED): the ranks of one node, which
//   SMPI would split by CPU host, i.e. by rail (docs/machine-file.md);
// - malloc, calloc, realloc, free, operator new/delete: large blocks shared
//   by all ranks (SharedHost.h).
//
// Outside a rank actor (static constructors, after the simulation) each
// wrapper does what the real function does.
//
//===----------------------------------------------------------------------===//

#include "RankClock.h"
#include "RankEnvironment.h"
#include "Runtime.h"
#include "SharedHost.h"

#include <mpi.h>

#include <smpi/smpi_helpers_internal.h>

#include <cstdlib>
#include <cstring>
#include <new>

using namespace orrery::sim;
namespace sh = orrery::sim::shared_host;

extern "C" {

// SMPI's clocks and sleeps are simcalls: the rank catches up first.
unsigned int __wrap_sleep(unsigned int S) {
  if (!inRankActor())
    return sleep(S);
  rank_clock::catchUp();
  return smpi_sleep(S);
}
int __wrap_usleep(useconds_t U) {
  if (!inRankActor())
    return usleep(U);
  rank_clock::catchUp();
  return smpi_usleep(U);
}
int __wrap_nanosleep(const struct timespec *T, struct timespec *Rem) {
  if (!inRankActor())
    return nanosleep(T, Rem);
  rank_clock::catchUp();
  return smpi_nanosleep(T, Rem);
}
int __wrap_gettimeofday(struct timeval *TV, void *TZ) {
  if (!inRankActor())
    return gettimeofday(TV, static_cast<struct timezone *>(TZ));
  rank_clock::catchUp();
  double Before = now();
  int Result = smpi_gettimeofday(TV, nullptr);
  chargeClockRead(Runtime::get().rank(), Before,
                  __builtin_return_address(0));
  return Result;
}
int __wrap_clock_gettime(clockid_t C, struct timespec *T) {
  if (!inRankActor())
    return clock_gettime(C, T);
  rank_clock::catchUp();
  double Before = now();
  int Result = smpi_clock_gettime(C, T);
  chargeClockRead(Runtime::get().rank(), Before,
                  __builtin_return_address(0));
  return Result;
}
double __wrap_MPI_Wtime() {
  if (!inRankActor())
    return MPI_Wtime();
  rank_clock::catchUp();
  double Before = now();
  double Result = MPI_Wtime();
  chargeClockRead(Runtime::get().rank(), Before,
                  __builtin_return_address(0));
  return Result;
}

int __wrap_getopt(int Argc, char *const *Argv, const char *Opts) {
  return inRankActor() ? smpi_getopt(Argc, Argv, Opts)
                       : getopt(Argc, Argv, Opts);
}
int __wrap_getopt_long(int Argc, char *const *Argv, const char *Opts,
                       const struct option *Long, int *Index) {
  return inRankActor() ? smpi_getopt_long(Argc, Argv, Opts, Long, Index)
                       : getopt_long(Argc, Argv, Opts, Long, Index);
}
int __wrap_getopt_long_only(int Argc, char *const *Argv, const char *Opts,
                            const struct option *Long, int *Index) {
  return inRankActor() ? smpi_getopt_long_only(Argc, Argv, Opts, Long, Index)
                       : getopt_long_only(Argc, Argv, Opts, Long, Index);
}

[[noreturn]] void __wrap_exit(int Status) {
  if (inRankActor()) {
    rank_clock::catchUp();
    smpi_exit(Status);
  }
  std::exit(Status);
}
pid_t __wrap_getpid(void) { return inRankActor() ? smpi_getpid() : getpid(); }

int __wrap_MPI_Abort(MPI_Comm Comm, int Code) {
  if (inRankActor()) {
    rank_clock::catchUp();
    Runtime::get().recordAbort(Code);
  }
  return MPI_Abort(Comm, Code);
}

int __wrap_MPI_Comm_split_type(MPI_Comm Comm, int Type, int Key, MPI_Info Info,
                               MPI_Comm *Out) {
  if (!inRankActor())
    return MPI_Comm_split_type(Comm, Type, Key, Info, Out);
  rank_clock::catchUp();
  if (Type != MPI_COMM_TYPE_SHARED)
    return MPI_Comm_split_type(Comm, Type, Key, Info, Out);
  return MPI_Comm_split(Comm, Runtime::get().rank().Node, Key, Out);
}

char *__wrap_getenv(const char *Name) {
  if (const char *V = rankEnvironment(Name))
    return const_cast<char *>(V);
  return std::getenv(Name);
}

void *__wrap_malloc(size_t N) {
  if (void *P = sh::allocate(N))
    return P;
  return std::malloc(N);
}
void *__wrap_calloc(size_t N, size_t Size) {
  size_t Bytes = 0;
  if (!__builtin_mul_overflow(N, Size, &Bytes))
    if (void *P = sh::allocate(Bytes))
      return P; // shared pages read as zero until some rank writes them
  return std::calloc(N, Size);
}
void __wrap_free(void *P) {
  if (!sh::release(P))
    std::free(P);
}
void *__wrap_realloc(void *P, size_t N) {
  size_t Old = P ? sh::sizeOf(P) : 0;
  if (Old == 0) // a heap block stays on the heap, whatever it grows to
    return std::realloc(P, N);
  void *Q = __wrap_malloc(N);
  if (Q) {
    std::memcpy(Q, P, Old < N ? Old : N);
    sh::release(P);
  }
  return Q;
}

// operator new, new[] (plain and nothrow) and the deletes that may free
// what they return. Aligned forms are not wrapped: they never share.
void *__wrap__Znwm(size_t N) {
  if (void *P = sh::allocate(N))
    return P;
  return ::operator new(N);
}
void *__wrap__Znam(size_t N) {
  if (void *P = sh::allocate(N))
    return P;
  return ::operator new[](N);
}
void *__wrap__ZnwmRKSt9nothrow_t(size_t N, const std::nothrow_t &T) noexcept {
  if (void *P = sh::allocate(N))
    return P;
  return ::operator new(N, T);
}
void *__wrap__ZnamRKSt9nothrow_t(size_t N, const std::nothrow_t &T) noexcept {
  if (void *P = sh::allocate(N))
    return P;
  return ::operator new[](N, T);
}
void __wrap__ZdlPv(void *P) noexcept {
  if (!sh::release(P))
    ::operator delete(P);
}
void __wrap__ZdaPv(void *P) noexcept {
  if (!sh::release(P))
    ::operator delete[](P);
}
void __wrap__ZdlPvm(void *P, size_t N) noexcept {
  if (!sh::release(P))
    ::operator delete(P, N);
}
void __wrap__ZdaPvm(void *P, size_t N) noexcept {
  if (!sh::release(P))
    ::operator delete[](P, N);
}
void __wrap__ZdlPvRKSt9nothrow_t(void *P, const std::nothrow_t &T) noexcept {
  if (!sh::release(P))
    ::operator delete(P, T);
}
void __wrap__ZdaPvRKSt9nothrow_t(void *P, const std::nothrow_t &T) noexcept {
  if (!sh::release(P))
    ::operator delete[](P, T);
}

} // extern "C"
