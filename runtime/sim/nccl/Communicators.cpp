//===- Communicators.cpp - Skeleton NCCL: communicators -------------------===//
//
// liborrery-sim-nccl answers NCCL's API in skeleton builds (the skeleton
// nccl.h). A communicator is a set of simulated ranks that made
// ncclCommInitRank with one unique id (or one rank's ncclCommInitAll, or a
// ncclCommSplit); this file makes, splits, queries and destroys them. The
// operations on them are in Operations.cpp; docs/nccl.md says what is
// modelled and what is not.
//
//===----------------------------------------------------------------------===//

#include "NcclInternal.h"

#include "cuda/CudaCommon.h"
#include "ranks/Runtime.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <tuple>

using namespace orrery::sim;
using namespace orrery::sim::nccl;

namespace orrery::sim::nccl {

ncclResult_t failed(ncclComm *C, ncclResult_t E, const std::string &Why) {
  if (C)
    C->LastError = Why;
  Runtime::get().report().warn("NCCL: " + Why);
  return E;
}

} // namespace orrery::sim::nccl

namespace {

// Ranks are SimGrid actors of one process that run one at a time.
std::map<std::string, std::shared_ptr<CommGroup>> &groups() {
  static std::map<std::string, std::shared_ptr<CommGroup>> G;
  return G;
}

ncclResult_t joinGroup(ncclComm_t *Out, int Size, const std::string &Key,
                       int Rank_) {
  if (!Out)
    return failed(nullptr, ncclInvalidArgument,
                  "ncclCommInitRank: the communicator pointer is null");
  if (Size < 1 || Rank_ < 0 || Rank_ >= Size)
    return failed(nullptr, ncclInvalidArgument,
                  "ncclCommInitRank: rank " + std::to_string(Rank_) + " of " +
                      std::to_string(Size) + " is not a rank");
  Rank &R = callingRank();
  std::shared_ptr<CommGroup> &G = groups()[Key];
  if (!G) {
    G = std::make_shared<CommGroup>();
    G->Size = Size;
    G->Members.assign(Size, nullptr);
    G->Devices.assign(Size, 0);
  }
  if (G->Size != Size)
    return failed(nullptr, ncclInvalidArgument,
                  "ncclCommInitRank: " + std::to_string(Size) +
                      " ranks, but the id's first member said " +
                      std::to_string(G->Size));
  if (G->Members[Rank_])
    return failed(nullptr, ncclInvalidUsage,
                  "ncclCommInitRank: rank " + std::to_string(Rank_) +
                      " joined this id twice");
  G->Members[Rank_] = &R;
  G->Devices[Rank_] = R.Device;
  auto *C = new ncclComm;
  C->Group = G;
  C->Rank = Rank_;
  C->Device = R.Device;
  *Out = C;
  return ncclSuccess;
}

std::string idKey(const ncclUniqueId &Id) {
  return std::string(Id.internal, Id.internal + NCCL_UNIQUE_ID_BYTES);
}

} // namespace

extern "C" {

ncclResult_t ncclGetVersion(int *Version) {
  if (!Version)
    return ncclInvalidArgument;
  *Version = NCCL_VERSION_CODE;
  return ncclSuccess;
}

ncclResult_t ncclGetUniqueId(ncclUniqueId *Id) {
  if (!Id)
    return ncclInvalidArgument;
  // Unique within the simulation: a counter, not a network address.
  static unsigned long long Next = 0;
  std::memset(Id->internal, 0, NCCL_UNIQUE_ID_BYTES);
  std::memcpy(Id->internal, "orrery-nccl-id", 14);
  unsigned long long N = ++Next;
  std::memcpy(Id->internal + 16, &N, sizeof N);
  return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t *Comm, int N, ncclUniqueId Id,
                              int Rank_) {
  return joinGroup(Comm, N, idKey(Id), Rank_);
}

ncclResult_t ncclCommInitRankConfig(ncclComm_t *Comm, int N, ncclUniqueId Id,
                                    int Rank_, ncclConfig_t *) {
  return joinGroup(Comm, N, idKey(Id), Rank_);
}

ncclResult_t ncclCommInitAll(ncclComm_t *Comms, int N, const int *Devices) {
  if (!Comms || N < 1)
    return failed(nullptr, ncclInvalidArgument,
                  "ncclCommInitAll: no communicators to make");
  ncclUniqueId Id;
  ncclGetUniqueId(&Id);
  Rank &R = callingRank();
  int Saved = R.Device;
  for (int I = 0; I < N; ++I) {
    R.Device = Devices ? physicalGpu(R, Devices[I]) : physicalGpu(R, I);
    ncclResult_t E = joinGroup(&Comms[I], N, idKey(Id), I);
    if (E != ncclSuccess) {
      R.Device = Saved;
      return E;
    }
  }
  R.Device = Saved;
  return ncclSuccess;
}

ncclResult_t ncclCommSplit(ncclComm_t Comm, int Color, int Key,
                           ncclComm_t *NewComm, ncclConfig_t *) {
  if (!Comm || !NewComm)
    return failed(Comm, ncclInvalidArgument, "ncclCommSplit: null argument");
  // Every member calls it: the members of one color, ordered by key then
  // rank, form the new communicator. The split is a collective: arrive
  // with (color, key) and wait for all.
  static std::map<std::pair<const CommGroup *, unsigned long long>,
                  std::vector<std::tuple<int, int, int>>>
      Splits; // (color, key, rank) of each member so far
  auto Slot = std::make_pair(Comm->Group.get(), ++Comm->Collectives);
  auto &Entries = Splits[Slot];
  Entries.emplace_back(Color, Key, Comm->Rank);
  --Comm->Collectives; // synchronizeMembers counts this collective itself
  synchronizeMembers(*Comm, "ncclCommSplit");
  if (Color == NCCL_SPLIT_NOCOLOR) {
    *NewComm = nullptr;
    return ncclSuccess;
  }
  std::vector<std::tuple<int, int, int>> Mine;
  for (const auto &E : Entries)
    if (std::get<0>(E) == Color)
      Mine.push_back(E);
  std::sort(Mine.begin(), Mine.end(), [](const auto &A, const auto &B) {
    return std::tie(std::get<1>(A), std::get<2>(A)) <
           std::tie(std::get<1>(B), std::get<2>(B));
  });
  int NewRank = 0;
  for (size_t I = 0; I < Mine.size(); ++I)
    if (std::get<2>(Mine[I]) == Comm->Rank)
      NewRank = static_cast<int>(I);
  std::string IdKey =
      "split:" + std::to_string(reinterpret_cast<uintptr_t>(Slot.first)) + ":" +
      std::to_string(Slot.second) + ":" + std::to_string(Color);
  return joinGroup(NewComm, static_cast<int>(Mine.size()), IdKey, NewRank);
}

ncclResult_t ncclCommFinalize(ncclComm_t Comm) {
  return Comm ? ncclSuccess : ncclInvalidArgument;
}

ncclResult_t ncclCommDestroy(ncclComm_t Comm) {
  delete Comm; // the group lives on while other members hold it
  return ncclSuccess;
}

ncclResult_t ncclCommAbort(ncclComm_t Comm) { return ncclCommDestroy(Comm); }

const char *ncclGetErrorString(ncclResult_t E) {
  switch (E) {
  case ncclSuccess:
    return "no error";
  case ncclUnhandledCudaError:
    return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
  case ncclSystemError:
    return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
  case ncclInternalError:
    return "internal error - please report this issue to the NCCL developers";
  case ncclInvalidArgument:
    return "invalid argument (run with NCCL_DEBUG=WARN for details)";
  case ncclInvalidUsage:
    return "invalid usage (run with NCCL_DEBUG=WARN for details)";
  case ncclRemoteError:
    return "remote process exited or there was a network error";
  case ncclInProgress:
    return "NCCL operation in progress";
  default:
    return "unknown result code";
  }
}

const char *ncclGetLastError(ncclComm_t Comm) {
  return Comm ? Comm->LastError.c_str() : "";
}

ncclResult_t ncclCommGetAsyncError(ncclComm_t Comm, ncclResult_t *E) {
  if (!Comm || !E)
    return ncclInvalidArgument;
  *E = ncclSuccess;
  return ncclSuccess;
}

ncclResult_t ncclCommCount(const ncclComm_t Comm, int *Count) {
  if (!Comm || !Count)
    return ncclInvalidArgument;
  *Count = Comm->Group->Size;
  return ncclSuccess;
}

ncclResult_t ncclCommCuDevice(const ncclComm_t Comm, int *Device) {
  if (!Comm || !Device)
    return ncclInvalidArgument;
  *Device = ordinalOf(callingRank(), Comm->Device);
  return ncclSuccess;
}

ncclResult_t ncclCommUserRank(const ncclComm_t Comm, int *Rank_) {
  if (!Comm || !Rank_)
    return ncclInvalidArgument;
  *Rank_ = Comm->Rank;
  return ncclSuccess;
}

// Buffers NCCL would register for zero-copy: device memory as cudaMalloc's.
ncclResult_t ncclMemAlloc(void **Ptr, size_t Size) {
  return cudaMalloc(Ptr, Size) == cudaSuccess ? ncclSuccess
                                              : ncclUnhandledCudaError;
}
ncclResult_t ncclMemFree(void *Ptr) {
  return cudaFree(Ptr) == cudaSuccess ? ncclSuccess : ncclUnhandledCudaError;
}
ncclResult_t ncclCommRegister(const ncclComm_t Comm, void *, size_t,
                              void **Handle) {
  if (!Comm || !Handle)
    return ncclInvalidArgument;
  *Handle = Comm;
  return ncclSuccess;
}
ncclResult_t ncclCommDeregister(const ncclComm_t Comm, void *) {
  return Comm ? ncclSuccess : ncclInvalidArgument;
}
ncclResult_t ncclRedOpCreatePreMulSum(ncclRedOp_t *Op, void *, ncclDataType_t,
                                      ncclScalarResidence_t, ncclComm_t) {
  if (!Op)
    return ncclInvalidArgument;
  *Op = ncclSum; // the same traffic as a sum
  return ncclSuccess;
}
ncclResult_t ncclRedOpDestroy(ncclRedOp_t, ncclComm_t) { return ncclSuccess; }

} // extern "C"
