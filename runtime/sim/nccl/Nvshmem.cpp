//===- Nvshmem.cpp - Skeleton NVSHMEM: the host API on the NCCL model -----===//
//
// liborrery-sim-nccl also answers NVSHMEM's host API (the skeleton
// nvshmem.h and nvshmemx.h). The PEs are the job's MPI ranks (or those of
// the communicator nvshmemx_init_attr names), joined in one NCCL
// communicator of the skeleton NCCL: barriers and collectives on streams
// are its collectives, put and get on streams its point-to-point time
// without a rendezvous (one-sided), host calls the same on the legacy stream
// followed by a wait. The symmetric heap is device memory: the k-th
// allocation of every PE is the same object, which is how a put's remote
// address is found. Kernels' own calls are the kernel analysis's: their
// bytes are charged with the kernel, their waits are not (docs/nccl.md,
// "NVSHMEM").
//
//===----------------------------------------------------------------------===//

#include "NcclInternal.h"

#include "cuda/CudaCommon.h"
#include "ranks/RankClock.h"
#include "ranks/Runtime.h"

#include <mpi.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

using namespace orrery::sim;

namespace {

/// What one PE (a simulated rank) holds.
struct PeState {
  bool Live = false;
  MPI_Comm Comm = MPI_COMM_NULL;
  ncclComm_t Nccl = nullptr;
  int Me = 0, N = 1;
  std::vector<std::pair<char *, size_t>> Heap; ///< in allocation order
  int *Scratch = nullptr; ///< a device word the barriers on streams reduce
};

std::map<const Rank *, PeState> &pes() {
  static std::map<const Rank *, PeState> M; // ranks are actors of one process
  return M;
}

/// A PE's MPI call: the rank first catches SimGrid's clock up with its own
/// time (RankClock.h), as an instrumented MPI call does.
void barrier(MPI_Comm C) {
  rank_clock::catchUp();
  MPI_Barrier(C);
}

void warnOnce(const std::string &What) {
  static std::set<std::string> Said;
  if (Said.insert(What).second)
    Runtime::get().report().warn("NVSHMEM: " + What);
}

/// The calling rank's PE; a call before nvshmem_init is an error NVSHMEM
/// does not report either: it is said once, and the call does nothing.
PeState *self(const char *Call) {
  auto It = pes().find(&callingRank());
  if (It != pes().end() && It->second.Live)
    return &It->second;
  warnOnce(std::string(Call) +
           " was called before nvshmem_init or nvshmemx_init_attr: ignored");
  return nullptr;
}

/// The PE's team: NVSHMEM_TEAM_WORLD is modelled; other teams are charged
/// as the world team (said once).
bool team(nvshmem_team_t T, const char *Call) {
  if (T == NVSHMEM_TEAM_INVALID)
    return false;
  if (T != NVSHMEM_TEAM_WORLD)
    warnOnce(std::string(Call) + " on a team other than NVSHMEM_TEAM_WORLD "
                                 "is charged as on the world team");
  return true;
}

int initOn(MPI_Comm Parent) {
  Rank &R = callingRank();
  PeState &P = pes()[&R];
  if (P.Live)
    return 0;
  int Ready = 0;
  MPI_Initialized(&Ready);
  if (!Ready)
    MPI_Init(nullptr, nullptr);
  rank_clock::catchUp();
  MPI_Comm_dup(Parent, &P.Comm);
  MPI_Comm_rank(P.Comm, &P.Me);
  MPI_Comm_size(P.Comm, &P.N);
  ncclUniqueId Id;
  if (P.Me == 0)
    ncclGetUniqueId(&Id);
  rank_clock::catchUp();
  MPI_Bcast(&Id, sizeof Id, MPI_BYTE, 0, P.Comm);
  if (ncclCommInitRank(&P.Nccl, P.N, Id, P.Me) != ncclSuccess)
    return 1;
  cudaMalloc(reinterpret_cast<void **>(&P.Scratch), sizeof(int));
  P.Live = true;
  return 0;
}

/// Where \p Local (in the calling PE's symmetric heap) is on PE \p To, or
/// null when it is not in the heap.
char *remote(const PeState &From, const void *Local, int To) {
  const char *L = static_cast<const char *>(Local);
  for (size_t K = 0; K < From.Heap.size(); ++K) {
    const auto &[Base, Size] = From.Heap[K];
    if (L < Base || L >= Base + Size)
      continue;
    const Rank *Peer = From.Nccl->Group->Members[To];
    auto It = Peer ? pes().find(Peer) : pes().end();
    if (It == pes().end() || K >= It->second.Heap.size())
      return nullptr;
    return It->second.Heap[K].first + (L - Base);
  }
  return nullptr;
}

void transfer(const char *Name, const void *Symmetric, size_t Bytes, int To,
              cudaStream_t S) {
  PeState *P = self(Name);
  if (!P)
    return;
  if (!remote(*P, Symmetric, To))
    warnOnce(std::string(Name) + ": an address outside the symmetric heap "
                                 "(nvshmem_malloc); charged all the same");
  orrery::sim::nccl::oneSided(*P->Nccl, Name, double(Bytes), To, S);
}

void barrierOnStream(const char *Name, cudaStream_t S) {
  if (PeState *P = self(Name))
    orrery::sim::nccl::collective(Name,
                                  orrery::models::NcclCollective::AllReduce, 1,
                                  1, ncclInt32, P->Nccl, S, -1);
}

void hostBarrier(const char *Name, bool Device) {
  PeState *P = self(Name);
  if (!P)
    return;
  if (Device)
    cudaDeviceSynchronize();
  barrier(P->Comm);
}

template <typename T> ncclDataType_t ncclTypeOf() {
  if (std::is_floating_point<T>::value)
    return sizeof(T) == 4 ? ncclFloat32 : ncclFloat64;
  if (sizeof(T) == 1)
    return ncclInt8;
  if (sizeof(T) == 4)
    return std::is_signed<T>::value ? ncclInt32 : ncclUint32;
  return std::is_signed<T>::value ? ncclInt64 : ncclUint64;
}

template <typename T>
int collectiveOn(const char *Name, orrery::models::NcclCollective K,
                 nvshmem_team_t Team, size_t Count, double Factor, int Root,
                 cudaStream_t S, bool Wait) {
  PeState *P = self(Name);
  if (!P || !team(Team, Name))
    return 1;
  ncclResult_t E = orrery::sim::nccl::collective(
      Name, K, double(Count), Factor, ncclTypeOf<T>(), P->Nccl, S, Root);
  if (Wait)
    cudaStreamSynchronize(S);
  return E == ncclSuccess ? 0 : 1;
}

} // namespace

extern "C" {

void nvshmem_init(void) { initOn(MPI_COMM_WORLD); }

int nvshmem_init_thread(int, int *Provided) {
  if (Provided)
    *Provided = NVSHMEM_THREAD_MULTIPLE;
  return initOn(MPI_COMM_WORLD);
}

int nvshmemx_init_attr(unsigned int Flags, nvshmemx_init_attr_t *Attr) {
  if ((Flags & NVSHMEMX_INIT_WITH_MPI_COMM) && Attr && Attr->mpi_comm)
    return initOn(*static_cast<MPI_Comm *>(Attr->mpi_comm));
  return initOn(MPI_COMM_WORLD);
}

int nvshmemx_hostlib_init_attr(unsigned int Flags, nvshmemx_init_attr_t *A) {
  return nvshmemx_init_attr(Flags, A);
}

int nvshmemx_init_status(void) {
  auto It = pes().find(&callingRank());
  return It != pes().end() && It->second.Live ? 2 : 0;
}

void nvshmem_finalize(void) {
  PeState *P = self("nvshmem_finalize");
  if (!P)
    return;
  barrier(P->Comm);
  ncclCommDestroy(P->Nccl);
  cudaFree(P->Scratch);
  MPI_Comm_free(&P->Comm);
  P->Live = false;
}

int nvshmem_my_pe(void) {
  PeState *P = self("nvshmem_my_pe");
  return P ? P->Me : -1;
}

int nvshmem_n_pes(void) {
  PeState *P = self("nvshmem_n_pes");
  return P ? P->N : -1;
}

int nvshmem_team_my_pe(nvshmem_team_t T) {
  return team(T, "nvshmem_team_my_pe") ? nvshmem_my_pe() : -1;
}
int nvshmem_team_n_pes(nvshmem_team_t T) {
  return team(T, "nvshmem_team_n_pes") ? nvshmem_n_pes() : -1;
}
int nvshmemx_my_pe(nvshmem_team_t T) { return nvshmem_team_my_pe(T); }
int nvshmemx_n_pes(nvshmem_team_t T) { return nvshmem_team_n_pes(T); }

void nvshmem_info_get_version(int *Major, int *Minor) {
  if (Major)
    *Major = NVSHMEM_MAJOR_VERSION;
  if (Minor)
    *Minor = NVSHMEM_MINOR_VERSION;
}

// The symmetric heap: collective, as in NVSHMEM (a barrier of every PE).
void *nvshmem_align(size_t, size_t Size) {
  PeState *P = self("nvshmem_malloc");
  if (!P)
    return nullptr;
  void *Ptr = nullptr;
  if (cudaMalloc(&Ptr, Size ? Size : 1) != cudaSuccess)
    Ptr = nullptr;
  if (Ptr)
    P->Heap.emplace_back(static_cast<char *>(Ptr), Size ? Size : 1);
  barrier(P->Comm);
  return Ptr;
}

void *nvshmem_malloc(size_t Size) { return nvshmem_align(0, Size); }

void *nvshmem_calloc(size_t Count, size_t Size) {
  void *Ptr = nvshmem_align(0, Count * Size);
  if (Ptr)
    cudaMemset(Ptr, 0, Count * Size);
  return Ptr;
}

void nvshmem_free(void *Ptr) {
  PeState *P = self("nvshmem_free");
  if (!P || !Ptr)
    return;
  barrier(P->Comm);
  for (auto &[Base, Size] : P->Heap)
    if (Base == Ptr) {
      cudaFree(Ptr);
      Base = nullptr; // keeps the index of the later allocations
      Size = 0;
    }
}

// A peer's copy of a symmetric object is reachable by load and store from
// the PEs of its node (NVLink or PCIe peer access); elsewhere null.
void *nvshmem_ptr(const void *Dest, int To) {
  PeState *P = self("nvshmem_ptr");
  if (!P || To < 0 || To >= P->N)
    return nullptr;
  if (To == P->Me)
    return const_cast<void *>(Dest);
  const Rank *Peer = P->Nccl->Group->Members[To];
  if (!Peer || Peer->Node != callingRank().Node)
    return nullptr;
  return remote(*P, Dest, To);
}

void nvshmem_quiet(void) {
  if (self("nvshmem_quiet"))
    cudaDeviceSynchronize();
}
void nvshmem_fence(void) {}
void nvshmemx_quiet_on_stream(cudaStream_t) {} // the stream orders it

void nvshmem_barrier_all(void) { hostBarrier("nvshmem_barrier_all", true); }
void nvshmem_sync_all(void) { hostBarrier("nvshmem_sync_all", false); }
int nvshmem_team_sync(nvshmem_team_t T) {
  if (!team(T, "nvshmem_team_sync"))
    return 1;
  hostBarrier("nvshmem_team_sync", false);
  return 0;
}

void nvshmemx_barrier_all_on_stream(cudaStream_t S) {
  barrierOnStream("nvshmemx_barrier_all_on_stream", S);
}
void nvshmemx_sync_all_on_stream(cudaStream_t S) {
  barrierOnStream("nvshmemx_sync_all_on_stream", S);
}
void nvshmemx_team_sync_on_stream(nvshmem_team_t T, cudaStream_t S) {
  if (team(T, "nvshmemx_team_sync_on_stream"))
    barrierOnStream("nvshmemx_team_sync_on_stream", S);
}

void nvshmemx_putmem_on_stream(void *Dest, const void *, size_t Bytes, int Pe,
                               cudaStream_t S) {
  transfer("nvshmemx_putmem_on_stream", Dest, Bytes, Pe, S);
}
void nvshmemx_getmem_on_stream(void *, const void *Source, size_t Bytes, int Pe,
                               cudaStream_t S) {
  transfer("nvshmemx_getmem_on_stream", Source, Bytes, Pe, S);
}
void nvshmemx_putmem_nbi_on_stream(void *Dest, const void *Source, size_t Bytes,
                                   int Pe, cudaStream_t S) {
  nvshmemx_putmem_on_stream(Dest, Source, Bytes, Pe, S);
}
void nvshmemx_getmem_nbi_on_stream(void *Dest, const void *Source, size_t Bytes,
                                   int Pe, cudaStream_t S) {
  nvshmemx_getmem_on_stream(Dest, Source, Bytes, Pe, S);
}

// Host-initiated put and get: on the legacy stream, and the host waits.
void nvshmem_putmem(void *Dest, const void *Source, size_t Bytes, int Pe) {
  nvshmemx_putmem_on_stream(Dest, Source, Bytes, Pe, nullptr);
  cudaStreamSynchronize(nullptr);
}
void nvshmem_getmem(void *Dest, const void *Source, size_t Bytes, int Pe) {
  nvshmemx_getmem_on_stream(Dest, Source, Bytes, Pe, nullptr);
  cudaStreamSynchronize(nullptr);
}
void nvshmem_putmem_nbi(void *Dest, const void *Source, size_t Bytes, int Pe) {
  nvshmemx_putmem_on_stream(Dest, Source, Bytes, Pe, nullptr);
}
void nvshmem_getmem_nbi(void *Dest, const void *Source, size_t Bytes, int Pe) {
  nvshmemx_getmem_on_stream(Dest, Source, Bytes, Pe, nullptr);
}

#define ORRERY_NVSHMEM_HOST_RMA(T, NAME)                                       \
  void nvshmem_##NAME##_put(T *Dest, const T *Source, size_t N, int Pe) {      \
    nvshmem_putmem(Dest, Source, N * sizeof(T), Pe);                           \
  }                                                                            \
  void nvshmem_##NAME##_get(T *Dest, const T *Source, size_t N, int Pe) {      \
    nvshmem_getmem(Dest, Source, N * sizeof(T), Pe);                           \
  }
ORRERY_NVSHMEM_RMA_TYPES(ORRERY_NVSHMEM_HOST_RMA)
#undef ORRERY_NVSHMEM_HOST_RMA

#define ORRERY_NVSHMEMX_TYPED(T, NAME)                                         \
  void nvshmemx_##NAME##_put_on_stream(T *Dest, const T *, size_t N, int Pe,   \
                                       cudaStream_t S) {                       \
    transfer("nvshmemx_" #NAME "_put_on_stream", Dest, N * sizeof(T), Pe, S);  \
  }                                                                            \
  void nvshmemx_##NAME##_get_on_stream(T *, const T *Source, size_t N, int Pe, \
                                       cudaStream_t S) {                       \
    transfer("nvshmemx_" #NAME "_get_on_stream", Source, N * sizeof(T), Pe,    \
             S);                                                               \
  }                                                                            \
  int nvshmemx_##NAME##_broadcast_on_stream(nvshmem_team_t Team, T *,          \
                                            const T *, size_t N, int Root,     \
                                            cudaStream_t S) {                  \
    return collectiveOn<T>("nvshmemx_" #NAME "_broadcast_on_stream",           \
                           orrery::models::NcclCollective::Broadcast, Team, N, \
                           1, Root, S, false);                                 \
  }                                                                            \
  int nvshmemx_##NAME##_fcollect_on_stream(                                    \
      nvshmem_team_t Team, T *, const T *, size_t N, cudaStream_t S) {         \
    PeState *P = self("nvshmemx_" #NAME "_fcollect_on_stream");                \
    return collectiveOn<T>("nvshmemx_" #NAME "_fcollect_on_stream",            \
                           orrery::models::NcclCollective::AllGather, Team, N, \
                           P ? P->N : 1, -1, S, false);                        \
  }                                                                            \
  int nvshmem_##NAME##_broadcast(nvshmem_team_t Team, T *, const T *,          \
                                 size_t N, int Root) {                         \
    return collectiveOn<T>("nvshmem_" #NAME "_broadcast",                      \
                           orrery::models::NcclCollective::Broadcast, Team, N, \
                           1, Root, nullptr, true);                            \
  }                                                                            \
  int nvshmem_##NAME##_fcollect(nvshmem_team_t Team, T *, const T *,           \
                                size_t N) {                                    \
    PeState *P = self("nvshmem_" #NAME "_fcollect");                           \
    return collectiveOn<T>("nvshmem_" #NAME "_fcollect",                       \
                           orrery::models::NcclCollective::AllGather, Team, N, \
                           P ? P->N : 1, -1, nullptr, true);                   \
  }
#define ORRERY_NVSHMEMX_REDUCE(T, NAME, OP)                                    \
  int nvshmemx_##NAME##_##OP##_reduce_on_stream(                               \
      nvshmem_team_t Team, T *, const T *, size_t N, cudaStream_t S) {         \
    return collectiveOn<T>("nvshmemx_" #NAME "_" #OP "_reduce_on_stream",      \
                           orrery::models::NcclCollective::AllReduce, Team, N, \
                           1, -1, S, false);                                   \
  }                                                                            \
  int nvshmem_##NAME##_##OP##_reduce(nvshmem_team_t Team, T *, const T *,      \
                                     size_t N) {                               \
    return collectiveOn<T>("nvshmem_" #NAME "_" #OP "_reduce",                 \
                           orrery::models::NcclCollective::AllReduce, Team, N, \
                           1, -1, nullptr, true);                              \
  }
#define ORRERY_NVSHMEMX_REDUCTIONS(T, NAME)                                    \
  ORRERY_NVSHMEMX_TYPED(T, NAME)                                               \
  ORRERY_NVSHMEM_REDUCE_OPS(ORRERY_NVSHMEMX_REDUCE, T, NAME)
ORRERY_NVSHMEM_REDUCTION_TYPES(ORRERY_NVSHMEMX_REDUCTIONS)
ORRERY_NVSHMEM_COLLECT_ONLY_TYPES(ORRERY_NVSHMEMX_TYPED)
#undef ORRERY_NVSHMEMX_REDUCTIONS
#undef ORRERY_NVSHMEMX_REDUCE
#undef ORRERY_NVSHMEMX_TYPED

} // extern "C"
