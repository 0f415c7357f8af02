//===- DeviceSends.cpp - Sends from simulated device memory ---------------===//
//
// SMPI copies the payload of every send below smpi/send-is-detached-thresh
// (64 KiB by default: halo rows) into a heap buffer when the send starts,
// reading the sender's buffer. In skeleton mode a device buffer holds no
// data, and reading its untouched pages costs nothing on most kernels (the
// shared zero page), but some give each page read a page of its own (a
// PVM/Firecracker guest's 6.18 kernel did: Jacobi's sent rows, 128 KiB per
// rank, gigabytes at 16,384 GPUs). orrery-cxx links the program's sends to
// these wrappers (LinkWraps.def), which hand SMPI a shared block of zeros
// instead of such a buffer (PayloadCopies.h, noDataSource); what is sent,
// to whom, how large, and what it costs are unchanged.
//
//===----------------------------------------------------------------------===//

#include "PayloadCopies.h"
#include "ranks/RankEnvironment.h"

#include <mpi.h>

using orrery::sim::inRankActor;
using orrery::sim::noDataSource;

namespace {

const void *source(const void *Buf, int Count, MPI_Datatype Type) {
  return inRankActor() ? noDataSource(Buf, Count, Type) : Buf;
}

} // namespace

// The blocking sends, and those that hand back a request (the persistent
// ones read their buffer at each MPI_Start).
#define ORRERY_SEND(Name)                                                      \
  int __wrap_##Name(const void *Buf, int Count, MPI_Datatype Type, int Dest,   \
                    int Tag, MPI_Comm Comm) {                                  \
    return Name(source(Buf, Count, Type), Count, Type, Dest, Tag, Comm);       \
  }
#define ORRERY_REQUEST_SEND(Name)                                              \
  int __wrap_##Name(const void *Buf, int Count, MPI_Datatype Type, int Dest,   \
                    int Tag, MPI_Comm Comm, MPI_Request *Request) {            \
    return Name(source(Buf, Count, Type), Count, Type, Dest, Tag, Comm,        \
                Request);                                                      \
  }

extern "C" {

ORRERY_SEND(MPI_Send)
ORRERY_SEND(MPI_Bsend)
ORRERY_SEND(MPI_Rsend)
ORRERY_REQUEST_SEND(MPI_Isend)
ORRERY_REQUEST_SEND(MPI_Ibsend)
ORRERY_REQUEST_SEND(MPI_Irsend)
ORRERY_REQUEST_SEND(MPI_Send_init)
ORRERY_REQUEST_SEND(MPI_Bsend_init)
ORRERY_REQUEST_SEND(MPI_Rsend_init)

int __wrap_MPI_Sendrecv(const void *SendBuf, int SendCount,
                        MPI_Datatype SendType, int Dest, int SendTag,
                        void *RecvBuf, int RecvCount, MPI_Datatype RecvType,
                        int Source, int RecvTag, MPI_Comm Comm,
                        MPI_Status *Status) {
  return MPI_Sendrecv(source(SendBuf, SendCount, SendType), SendCount, SendType,
                      Dest, SendTag, RecvBuf, RecvCount, RecvType, Source,
                      RecvTag, Comm, Status);
}

} // extern "C"
