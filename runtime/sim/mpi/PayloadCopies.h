//===- PayloadCopies.h - Which MPI payloads SMPI copies ---------*- C++ -*-===//
//
// SMPI copies every message's payload from the sender's buffer into the
// receiver's. In skeleton mode simulated device memory holds no data, so a
// copy out of it or into it is wasted work, and a copy into it costs real
// pages: every received halo row made resident pages of an array that is
// otherwise address space only (docs/simulate.md, "Memory").
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_PAYLOADCOPIES_H
#define ORRERY_SIM_PAYLOADCOPIES_H

#include <mpi.h>

namespace orrery::sim {

/// Makes SMPI skip the payload copy of messages whose source or destination
/// is simulated device memory without host-visible data, or a shared host
/// block. Idempotent.
void installCopyFilter();

/// What a send of \p Count \p Type from \p Buf hands SMPI: a shared block
/// of zeros where \p Buf is simulated device memory without data and the
/// datatype's span fits the block (1 MiB), else \p Buf (mpi/DeviceSends.cpp
/// says why).
const void *noDataSource(const void *Buf, int Count, MPI_Datatype Type);

} // namespace orrery::sim

#endif // ORRERY_SIM_PAYLOADCOPIES_H
