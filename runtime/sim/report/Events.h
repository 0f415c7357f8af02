//===- Events.h - The simulated events a run went through -------*- C++ -*-===//
//
// The report's "events": kernel launches, copies, MPI messages and
// collectives, counted from its call-site and kernel rows when it is
// written (nothing on the simulation's hot path), and their rate per wall
// second: the figure a simulation's cost grows with, comparable across
// programs and with other simulators (docs/performance.md).
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_EVENTS_H
#define ORRERY_SIM_EVENTS_H

#include <string>

namespace orrery::sim {

struct EventCounts {
  double Kernels = 0, Copies = 0, MpiMessages = 0, MpiCollectives = 0;
  double total() const {
    return Kernels + Copies + MpiMessages + MpiCollectives;
  }
};

/// Adds the events of \p Calls calls of \p Api (a site's API name, as the
/// API tables spell it) to \p E: copies and sets (apis/.../Cuda.def's Copy
/// and Set rows), messages and collectives (Mpi.def's classes). Kernel
/// launches are counted from the kernel rows, not here.
void countCalls(EventCounts &E, const std::string &Api, double Calls);

} // namespace orrery::sim

#endif // ORRERY_SIM_EVENTS_H
