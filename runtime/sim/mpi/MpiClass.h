//===- MpiClass.h - What each MPI call is, from the MPI table ---*- C++ -*-===//
//
// The operation class of each MPI call (apis/include/orrery/apis/Mpi.def):
// what MpiCost.cpp charges on top of SMPI's network time, and what the
// report counts it as among the run's events (report/Events.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_MPICLASS_H
#define ORRERY_SIM_MPICLASS_H

#include "orrery/models/Machine.h"

namespace orrery::sim {

enum class MpiClass {
  Other,
  Send,
  Recv,
  NonblockingRecv,
  SendRecv,
  Wait,
  Collective,
  OneSidedFrom, ///< origin buffer is read (put, accumulate)
  OneSidedTo,   ///< origin buffer is written (get)
  Finalize
};

struct MpiOp {
  MpiClass Class = MpiClass::Other;
  models::Collective Coll = models::Collective::Barrier;
  bool Nonblocking = false; ///< a collective's nonblocking variant
};

/// The class of \p Api (a site's API name); Other for a call the table
/// lacks.
MpiOp classify(const char *Api);

/// What a call of \p Api counts as among the report's events: a message
/// the program sends (point-to-point or one-sided), a collective, or
/// neither (receives, waits, set-up).
enum class MpiEvent { None, Message, Collective };
MpiEvent mpiEventOf(const char *Api);

} // namespace orrery::sim

#endif // ORRERY_SIM_MPICLASS_H
