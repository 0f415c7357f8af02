//===- sim_endpoint.h - one simulated rank's RAMC endpoint -----*- C++ -*-===//
//
// What a simulated NIC holds for one context of one rank: its host, the
// memory it registered, and what arrived for the rank's next progress() to
// drain - completions of its own operations, remote CQ data, device legs to
// charge. Arrivals are delivered by flows completing (maestro, sim_flows.cpp)
// and by other ranks (barrier releases); they wake the rank if it waits.
// Shared (std::shared_ptr) by the rank's transport and by flows in flight,
// so a flow landing after the rank closed its endpoint finds it closed.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_SIM_SIM_ENDPOINT_H
#define RAMC_SRC_SIM_SIM_ENDPOINT_H

#include "sim_regions.h"
#include "transport.h"

#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Mutex.hpp>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace ramc::sim {

/// A completion (or failure) of one of the endpoint's operations.
struct TxEvent {
  void *Op = nullptr; ///< nullptr: an injected write failed
  int Err = 0;
  std::string Msg;
  /// The poll that collects it was charged with the operation (a read
  /// completed within the call).
  bool Prepaid = false;
};

/// A device leg the rank charges when it next looks at its completions.
struct PendingLeg {
  const void *Buf = nullptr;
  double Bytes = 0;
  int Peer = 0;
  bool Sending = false;
};

class SimEndpoint {
public:
  SimEndpoint(int Rank, uint64_t Id, simgrid::s4u::Host *Host, NotifyMode Mode);
  SimEndpoint(const SimEndpoint &) = delete;
  SimEndpoint &operator=(const SimEndpoint &) = delete;

  /// Creates and takes the wake-up lock; the owning rank's actor only.
  void start();
  /// Releases the lock; the owning rank's actor only.
  void stop();

  /// Something arrived for this endpoint: wakes the owner if it waits.
  /// Callable from any actor and from maestro.
  void wake();
  /// Blocks the owner until wake() or until the simulated time Until
  /// (Until < 0: no limit). Returns at once if anything arrived since the
  /// previous wait returned, so no wake-up is ever lost.
  void wait(double Until);

  const int Rank;
  const uint64_t Id;
  simgrid::s4u::Host *const Host;
  const NotifyMode Mode;
  bool Open = true;
  RegionTable Regions;
  std::vector<TxEvent> TxEvents;
  std::vector<uint64_t> RxData;
  std::vector<std::vector<uint8_t>> RxBatches;
  std::vector<PendingLeg> Legs;

private:
  simgrid::s4u::ConditionVariablePtr Cv;
  simgrid::s4u::MutexPtr Mx;
  std::unique_lock<simgrid::s4u::Mutex> Held;
  bool Waiting = false;
  uint64_t Events = 0;
  uint64_t Seen = 0;
};

} // namespace ramc::sim

#endif
