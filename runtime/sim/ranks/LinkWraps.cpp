//===- LinkWraps.cpp - libc and C++ calls a skeleton program is linked to
//--===//
//
// orrery-cxx links skeleton programs with -Wl,--wrap=SYMBOL for the symbols
// below (tool/orrery-cxx/SkeletonLink.cpp lists them), so the program's own
// calls reach these functions while libraries keep the real ones. This does
// at link time what SMPI's smpi_helpers.h does with macros, without macros:
// a macro named malloc or exit breaks libcu++ (cuda::std::malloc), class
// members named free, std::exit and the like.
//
// - sleep, usleep, nanosleep, gettimeofday, clock_gettime (every clock),
//   time, MPI_Wtime, omp_get_wtime, std::chrono's steady_clock and
//   system_clock (high_resolution_clock is the latter): simulated time, with
//   or without MPI_Init; clock reads in a polling loop charged as Polling.h
//   says;
// - getopt, getopt_long, getopt_long_only: one parser state per rank;
// - exit: ends the calling rank, not the simulation; getpid: per rank;
// - getenv: launcher variables per rank (RankEnvironment.h);
// - MPI_Abort: recorded, so the run ends as failed with the abort's code;
// - MPI_Comm_split_type(MPI_COMM_TYPE_SHARED): the ranks of one node, which
//   SMPI would split by CPU host, i.e. by rail (docs/machine-file.md);
// - gethostname and MPI_Get_processor_name: the rank's simulated node
//   ("node3"), not the machine the simulation runs on (codes that find
//   their node-local rank by hashing host names, as nccl-tests does, would
//   see every rank on one node) nor SMPI's CPU host of the rank's rail;
// - MPI_Test of MPI_REQUEST_NULL with MPI_STATUS_IGNORE: SMPI 3.32 leaves
//   the flag as it was, MPI says true (a code that tests a request it has
//   not started yet, as Quicksilver's test for done does, loops forever);
// - MPI_Get_elements and MPI-3's MPI_Count variants SMPI aborts on
//   (MPI_Get_elements_x,
//   MPI_Type_size_x, MPI_Type_get_(true_)extent_x,
//   MPI_Status_set_elements_x; MPI-IO codes such as IOR call them): the int
//   and MPI_Aint calls they widen;
// - malloc, calloc, realloc, free, operator new/delete: large blocks shared
//   by all ranks (SharedHost.h);
// - the point-to-point sends (MPI_Send, MPI_Isend, MPI_Sendrecv and their
//   buffered, ready and persistent forms) are wrapped in
//   mpi/DeviceSends.cpp: SMPI reads a block of zeros instead of simulated
//   device memory.
//
// Outside a rank actor (static constructors, after the simulation) each
// wrapper does what the real function does.
//
//===----------------------------------------------------------------------===//

#include "RankClock.h"
#include "RankEnvironment.h"
#include "Runtime.h"
#include "SharedHost.h"
#include "orrery/models/Platform.h"

#include <mpi.h>

#include <smpi/smpi_helpers_internal.h>

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

using namespace orrery::sim;
namespace sh = orrery::sim::shared_host;

namespace {

/// Whether SMPI's own timers tell simulated time: only between MPI_Init and
/// MPI_Finalize (outside, they return the host's real time).
bool smpiTimers() {
  int Initialized = 0, Finalized = 0;
  MPI_Initialized(&Initialized);
  MPI_Finalized(&Finalized);
  return Initialized && !Finalized;
}

/// A clock read in a rank: SMPI's timer \p Smpi where it tells simulated
/// time (it also accounts host computation under --host-compute), else the
/// rank's own time given to \p Own; charged as a polling read where it is
/// one (Polling.h).
template <class SmpiFn, class OwnFn>
auto readClock(SmpiFn Smpi, OwnFn Own) -> decltype(Smpi()) {
  rank_clock::catchUp();
  double Before = now();
  auto Result = smpiTimers() ? Smpi() : Own(Before);
  chargeClockRead(Runtime::get().rank(), Before, __builtin_return_address(0));
  return Result;
}

struct timespec timespecOf(double T) {
  struct timespec S;
  S.tv_sec = static_cast<time_t>(T);
  S.tv_nsec = static_cast<long>((T - static_cast<double>(S.tv_sec)) * 1e9);
  return S;
}

} // namespace

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
  return readClock([&] { return smpi_gettimeofday(TV, nullptr); },
                   [&](double T) {
                     if (TV) {
                       struct timespec S = timespecOf(T);
                       TV->tv_sec = S.tv_sec;
                       TV->tv_usec = static_cast<suseconds_t>(S.tv_nsec / 1000);
                     }
                     return 0;
                   });
}
int __wrap_clock_gettime(clockid_t C, struct timespec *T) {
  if (!inRankActor())
    return clock_gettime(C, T);
  return readClock([&] { return smpi_clock_gettime(C, T); },
                   [&](double Now) {
                     if (T)
                       *T = timespecOf(Now);
                     return 0;
                   });
}
double __wrap_MPI_Wtime() {
  if (!inRankActor())
    return MPI_Wtime();
  return readClock([] { return MPI_Wtime(); }, [](double T) { return T; });
}
time_t __wrap_time(time_t *Out) {
  if (!inRankActor())
    return time(Out);
  time_t T = readClock(
      [] {
        struct timeval TV;
        smpi_gettimeofday(&TV, nullptr);
        return TV.tv_sec;
      },
      [](double Now) { return static_cast<time_t>(Now); });
  if (Out)
    *Out = T;
  return T;
}
double __wrap_omp_get_wtime(void) {
  if (!inRankActor()) {
    using Fn = double (*)();
    static Fn Real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "omp_get_wtime"));
    return Real ? Real() : 0;
  }
  return readClock([] { return MPI_Wtime(); }, [](double T) { return T; });
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

int __wrap_MPI_Test(MPI_Request *Request, int *Flag, MPI_Status *Status) {
  if (inRankActor() && Request && Flag && *Request == MPI_REQUEST_NULL &&
      Status == MPI_STATUS_IGNORE) {
    *Flag = 1;
    return MPI_SUCCESS;
  }
  return MPI_Test(Request, Flag, Status);
}

/// Elements of \p Type a receive or file access moved: its bytes over the
/// type's size, exact for predefined types (a derived type's instance counts
/// as one element). SMPI implements neither MPI_Get_elements nor its _x.
int __wrap_MPI_Get_elements(MPI_Status *Status, MPI_Datatype Type, int *Count) {
  int Bytes = 0, Size = 0;
  int Rc = MPI_Get_count(Status, MPI_BYTE, &Bytes);
  if (Rc != MPI_SUCCESS)
    return Rc;
  Rc = MPI_Type_size(Type, &Size);
  *Count = Size > 0 ? Bytes / Size : 0;
  return Rc;
}

int __wrap_MPI_Get_elements_x(const MPI_Status *Status, MPI_Datatype Type,
                              MPI_Count *Count) {
  int N = 0;
  int Rc = __wrap_MPI_Get_elements(const_cast<MPI_Status *>(Status), Type, &N);
  *Count = N;
  return Rc;
}

int __wrap_MPI_Type_size_x(MPI_Datatype Type, MPI_Count *Size) {
  int N = 0;
  int Rc = MPI_Type_size(Type, &N);
  *Size = N;
  return Rc;
}

int __wrap_MPI_Type_get_extent_x(MPI_Datatype Type, MPI_Count *Lb,
                                 MPI_Count *Extent) {
  MPI_Aint L = 0, E = 0;
  int Rc = MPI_Type_get_extent(Type, &L, &E);
  *Lb = L;
  *Extent = E;
  return Rc;
}

int __wrap_MPI_Type_get_true_extent_x(MPI_Datatype Type, MPI_Count *Lb,
                                      MPI_Count *Extent) {
  MPI_Aint L = 0, E = 0;
  int Rc = MPI_Type_get_true_extent(Type, &L, &E);
  *Lb = L;
  *Extent = E;
  return Rc;
}

int __wrap_MPI_Status_set_elements_x(MPI_Status *Status, MPI_Datatype Type,
                                     MPI_Count Count) {
  return MPI_Status_set_elements(Status, Type, static_cast<int>(Count));
}

int __wrap_gethostname(char *Name, size_t Len) {
  if (!inRankActor())
    return gethostname(Name, Len);
  std::string Node = orrery::models::nodeZoneName(Runtime::get().rank().Node);
  if (!Name || Node.size() + 1 > Len) {
    errno = ENAMETOOLONG;
    return -1;
  }
  std::memcpy(Name, Node.c_str(), Node.size() + 1);
  return 0;
}

int __wrap_MPI_Get_processor_name(char *Name, int *Length) {
  if (!inRankActor())
    return MPI_Get_processor_name(Name, Length);
  std::string Node = orrery::models::nodeZoneName(Runtime::get().rank().Node);
  size_t N = std::min<size_t>(Node.size(), MPI_MAX_PROCESSOR_NAME - 1);
  std::memcpy(Name, Node.c_str(), N);
  Name[N] = '\0';
  *Length = static_cast<int>(N);
  return MPI_SUCCESS;
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

// std::chrono's clocks are functions of libstdc++ (which calls
// clock_gettime itself, out of the wraps' reach); the program's calls to
// them are wrapped. A time_point of nanoseconds is returned as its count.
template <class Clock> static long long chronoNow(clockid_t Id) {
  if (!inRankActor())
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               Clock::now().time_since_epoch())
        .count();
  struct timespec T;
  __wrap_clock_gettime(Id, &T);
  return static_cast<long long>(T.tv_sec) * 1000000000LL + T.tv_nsec;
}
extern "C" long long __wrap__ZNSt6chrono3_V212steady_clock3nowEv() {
  return chronoNow<std::chrono::steady_clock>(CLOCK_MONOTONIC);
}
extern "C" long long __wrap__ZNSt6chrono3_V212system_clock3nowEv() {
  return chronoNow<std::chrono::system_clock>(CLOCK_REALTIME);
}
