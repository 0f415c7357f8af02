//===- MpiResultRecorder.h - MPI results a native run got -------*- C++ -*-===//
//
// A program's global decisions pass through an MPI reduction, scan or
// broadcast (a residual summed over ranks, a particle count a kernel left in
// managed memory): with ORRERY_RECORD_READS set, a native run records each
// such result in the same file as its device reads, so that a simulation
// replays the real iteration counts (orrery-run --replay-reads). A blocking
// call's result is read when it returns; a nonblocking call's when a later
// call (the wait or test) has changed the program's request, as MPI does
// when it completes one. MPI is reached through the symbols the program
// links, so the library needs no MPI of its own.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_RUNTIME_NATIVE_MPIRESULTRECORDER_H
#define ORRERY_RUNTIME_NATIVE_MPIRESULTRECORDER_H

#include "orrery/hooks.h"

#include <cstdint>

namespace orrery::native {

/// orrery_mpi_begin of \p Site: its receive buffer \p Recv, root \p Root,
/// communicator \p Comm and, for nonblocking calls, where the program keeps
/// the request.
void mpiResultBegin(const orrery_site *Site, const orrery_buf &Recv, int Root,
                    intptr_t Comm, const void *Request);
/// The end of \p Site's call (any call) with \p Result (0: success): takes
/// the results that are there now.
void mpiResultEnd(const orrery_site *Site, long long Result);

} // namespace orrery::native

#endif
