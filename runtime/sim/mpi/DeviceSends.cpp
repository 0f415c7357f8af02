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

extern "C" {

int __wrap_MPI_Send(const void *Buf, int Count, MPI_Datatype Type, int Dest,
                    int Tag, MPI_Comm Comm) {
  return MPI_Send(source(Buf, Count, Type), Count, Type, Dest, Tag, Comm);
}

int __wrap_MPI_Isend(const void *Buf, int Count, MPI_Datatype Type, int Dest,
                     int Tag, MPI_Comm Comm, MPI_Request *Request) {
  return MPI_Isend(source(Buf, Count, Type), Count, Type, Dest, Tag, Comm,
                   Request);
}

int __wrap_MPI_Bsend(const void *Buf, int Count, MPI_Datatype Type, int Dest,
                     int Tag, MPI_Comm Comm) {
  return MPI_Bsend(source(Buf, Count, Type), Count, Type, Dest, Tag, Comm);
}

int __wrap_MPI_Ibsend(const void *Buf, int Count, MPI_Datatype Type, int Dest,
                      int Tag, MPI_Comm Comm, MPI_Request *Request) {
  return MPI_Ibsend(source(Buf, Count, Type), Count, Type, Dest, Tag, Comm,
                    Request);
}

int __wrap_MPI_Rsend(const void *Buf, int Count, MPI_Datatype Type, int Dest,
                     int Tag, MPI_Comm Comm) {
  return MPI_Rsend(source(Buf, Count, Type), Count, Type, Dest, Tag, Comm);
}

int __wrap_MPI_Irsend(const void *Buf, int Count, MPI_Datatype Type, int Dest,
                      int Tag, MPI_Comm Comm, MPI_Request *Request) {
  return MPI_Irsend(source(Buf, Count, Type), Count, Type, Dest, Tag, Comm,
                    Request);
}

int __wrap_MPI_Sendrecv(const void *SendBuf, int SendCount,
                        MPI_Datatype SendType, int Dest, int SendTag,
                        void *RecvBuf, int RecvCount, MPI_Datatype RecvType,
                        int Source, int RecvTag, MPI_Comm Comm,
                        MPI_Status *Status) {
  return MPI_Sendrecv(source(SendBuf, SendCount, SendType), SendCount, SendType,
                      Dest, SendTag, RecvBuf, RecvCount, RecvType, Source,
                      RecvTag, Comm, Status);
}

// Persistent sends read their buffer at each MPI_Start.
int __wrap_MPI_Send_init(const void *Buf, int Count, MPI_Datatype Type,
                         int Dest, int Tag, MPI_Comm Comm,
                         MPI_Request *Request) {
  return MPI_Send_init(source(Buf, Count, Type), Count, Type, Dest, Tag, Comm,
                       Request);
}

int __wrap_MPI_Bsend_init(const void *Buf, int Count, MPI_Datatype Type,
                          int Dest, int Tag, MPI_Comm Comm,
                          MPI_Request *Request) {
  return MPI_Bsend_init(source(Buf, Count, Type), Count, Type, Dest, Tag, Comm,
                        Request);
}

int __wrap_MPI_Rsend_init(const void *Buf, int Count, MPI_Datatype Type,
                          int Dest, int Tag, MPI_Comm Comm,
                          MPI_Request *Request) {
  return MPI_Rsend_init(source(Buf, Count, Type), Count, Type, Dest, Tag, Comm,
                        Request);
}

} // extern "C"
