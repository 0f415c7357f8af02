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

/// True when SMPI benchmarks rank code (smpi/simulate-computation on, or
/// mmap privatization, whose data-segment switch rides on the benchmark
/// calls): only then must blocking S4U calls from rank code be bracketed
/// by smpi_bench_end()/smpi_bench_begin().
bool benchmarking();

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
/// Charges, in one wait of the calling rank, \p Overhead seconds of call
/// overhead followed by \p Network seconds spent waiting for the network
/// (an exchange timed with messageSeconds).
void chargeOverheadAndNetwork(double Overhead, bool Estimate, double Network);
/// What one message of \p Bytes from \p From to \p To costs with nothing
/// else on the route: the route's latency plus bytes over its bottleneck
/// bandwidth, with the factors the network model applies to such a message
/// (1 in ideal mode, and on routes made only of GPU links). For exchanges
/// too small to simulate as flows (they do not load the links).
double messageSeconds(const simgrid::s4u::Host *From,
                      const simgrid::s4u::Host *To, double Bytes);

} // namespace orrery::sim::api

#endif // ORRERY_SIM_SIMAPI_H
