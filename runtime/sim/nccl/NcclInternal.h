//===- NcclInternal.h - What the skeleton NCCL's halves share ---*- C++ -*-===//
//
// liborrery-sim-nccl in two files: communicators and their queries
// (Communicators.cpp), and the operations on them, collectives, send/receive
// and groups (Operations.cpp). This is what both see.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_NCCL_NCCLINTERNAL_H
#define ORRERY_SIM_NCCL_NCCLINTERNAL_H

#include <nccl.h>

#include "orrery/models/NcclCost.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace orrery::sim {
struct Rank;
}

namespace orrery::sim::nccl {

/// The ranks that share one unique id.
struct CommGroup {
  int Size = 0;
  std::vector<Rank *> Members; ///< by NCCL rank (null: not joined yet)
  std::vector<int> Devices;    ///< each member's GPU of its node
};

} // namespace orrery::sim::nccl

/// The opaque communicator of nccl.h.
struct ncclComm {
  std::shared_ptr<orrery::sim::nccl::CommGroup> Group;
  int Rank = 0;
  int Device = 0;
  unsigned long long Collectives = 0; ///< issued so far by this member
  std::map<int, unsigned long long> Sent, Received; ///< by peer
  std::string LastError;
};

namespace orrery::sim::nccl {

/// Records a failed call's reason for ncclGetLastError; a warning of the
/// report.
ncclResult_t failed(ncclComm *C, ncclResult_t E, const std::string &Why);

/// Returns once every member of \p Comm has made this call (\p Name): a
/// collective without traffic, as ncclCommSplit.
void synchronizeMembers(ncclComm &Comm, const char *Name);

/// A collective \p K of \p Count x \p Factor elements of \p Type on
/// \p Stream (\p Root: its root, or -1), named \p Name in the report and
/// the timeline: NCCL's calls and NVSHMEM's collectives on streams.
ncclResult_t collective(const char *Name, models::NcclCollective K,
                        double Count, double Factor, ncclDataType_t Type,
                        ncclComm_t Comm, cudaStream_t Stream, int Root);

/// A one-sided transfer of \p Bytes between the calling member and member
/// \p Peer on \p Stream (NVSHMEM's put and get on a stream): NCCL's
/// point-to-point time between their nodes, without a rendezvous (the peer
/// makes no call).
ncclResult_t oneSided(ncclComm &Comm, const char *Name, double Bytes, int Peer,
                      cudaStream_t Stream);

} // namespace orrery::sim::nccl

#endif
