//===- sim_world.h - what all simulated ranks share ------------*- C++ -*-===//
//
// smpirun runs every rank in one process and loads libramc-sim once, so
// everything here is shared by all ranks on purpose: the open endpoints
// (how a rank finds a peer from the address it published), the host of each
// rank, route latencies, and the machine's RAMC costs. Per-rank state lives
// in SimEndpoint and in the rank's own contexts, never here.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_SIM_SIM_WORLD_H
#define RAMC_SRC_SIM_SIM_WORLD_H

#include "sim_costs.h"
#include "sim_endpoint.h"

#include <simgrid/s4u/Host.hpp>

#include <memory>
#include <unordered_map>
#include <vector>

namespace ramc::sim {

class SimWorld {
public:
  static SimWorld &get();

  /// The machine's RAMC costs (read on first use; call from a rank).
  const SimCosts &costs();
  /// Ranks in the run (smpi/np).
  int size() const;

  /// Opens an endpoint for the calling rank on Host; the caller start()s it.
  std::shared_ptr<SimEndpoint> open(int Rank, simgrid::s4u::Host *Host,
                                    NotifyMode Mode);
  /// Closes E: later arrivals for it fail, peers can no longer resolve it.
  void close(SimEndpoint &E);
  /// The open endpoint Id, or nullptr.
  std::shared_ptr<SimEndpoint> find(uint64_t Id) const;
  /// Wakes every open endpoint (a barrier was released).
  void wakeAll();

  /// The CPU host Rank opened its endpoints on, or nullptr.
  simgrid::s4u::Host *hostOf(int Rank) const;

  /// Registrations and endpoints not yet released (ramc_debug_live_objects).
  long LiveObjects = 0;

  /// What the simulated transport did, over all ranks; printed on stderr at
  /// exit when RAMC_SIM_STATS is set.
  struct Counters {
    unsigned long long Writes = 0, Reads = 0, Atomics = 0, Polls = 0, Waits = 0,
                       Flows = 0, Timed = 0;
  } Stats;

private:
  SimWorld() = default;

  bool HaveCosts = false;
  SimCosts Costs;
  uint64_t NextId = 1;
  std::unordered_map<uint64_t, std::shared_ptr<SimEndpoint>> Endpoints;
  std::vector<simgrid::s4u::Host *> Hosts; // by rank
};

} // namespace ramc::sim

#endif
