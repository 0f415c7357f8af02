//===- Api.h - Services of liborrery-sim to simulated libraries -*- C++ -*-===//
//-*-===//
//
// What the simulated RAMC transport (and any other library simulated next to
// liborrery-sim) may use: the machine of the run, the calling rank and its
// node, and the device legs GPU-aware MPI charges. Call from SMPI rank
// actors only.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_SIMAPI_H
#define ORRERY_SIM_SIMAPI_H

#include "orrery/models/Machine.h"

#include <simgrid/s4u/Host.hpp>

#include <cstddef>

namespace orrery::sim::api {

/// The machine model of this run (ORRERY_MACHINE plus ORRERY_NETWORK_FILE).
const models::Machine &machine();
/// True under ORRERY_NETWORK_MODE=ideal.
bool idealNetwork();
/// The calling rank's world rank, node index and CPU host.
int rank();
int node();
simgrid::s4u::Host *cpuHost();
/// The node of world rank \p R, as the hostfile places ranks.
int nodeOfRank(int R);
/// True when \p P lies in device (or managed) memory of the calling rank.
bool isDeviceMemory(const void *P);
/// Charges, on the calling rank, the device leg of its side of a transfer
/// of \p Bytes with world rank \p Peer (as GPU-aware MPI would): nothing for
/// host memory. \p Sending: the rank's buffer is the source.
void chargeDeviceLeg(const void *Buf, double Bytes, int Peer, bool Sending);
/// Charges \p Seconds of CPU time to the calling rank under "call overhead".
void chargeCallOverhead(double Seconds, bool Estimate);

} // namespace orrery::sim::api

#endif // ORRERY_SIM_SIMAPI_H
