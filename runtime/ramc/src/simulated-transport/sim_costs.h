//===- sim_costs.h - RAMC's costs under simulation -------------*- C++ -*-===//
//
// What the simulated transport charges besides the network: per-call
// software overheads, the inject threshold and the notification mode, from
// the machine file's network.ramc section (docs/machine-file.md). Pure: no
// SimGrid, so it is unit-tested on its own.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_SIM_SIM_COSTS_H
#define RAMC_SRC_SIM_SIM_COSTS_H

#include "transport.h"

#include "orrery/models/Machine.h"

#include <cstddef>
#include <string>

namespace ramc::sim {

/// One per-call overhead: seconds, and whether it rests on an estimate.
struct Overhead {
  double Seconds = 0;
  bool Estimate = false;
  Overhead operator+(const Overhead &O) const {
    return {Seconds + O.Seconds, Estimate || O.Estimate};
  }
};

struct SimCosts {
  std::string Provider;  ///< the modelled libfabric provider ("cxi", ...)
  Overhead Put;          ///< each write (put, attach acknowledgement)
  Overhead Get;          ///< each read (get, status and board reads)
  Overhead Atomic;       ///< each atomic increment
  Overhead Completion;   ///< each poll of completions or counters
  Overhead Registration; ///< each memory registration (window, context)
  size_t InjectSize = 0; ///< puts up to this size complete at once
  /// The node's memory copies (node.shm_transport): what copying a batch
  /// of aggregated puts costs, into it at the initiator and out of it at
  /// the target.
  orrery::models::SharedMemoryModel Copies;
  /// The time to copy Bytes (one core's copy rate).
  Overhead copy(double Bytes) const {
    double S = Copies.copySeconds(Bytes);
    return {S, S > 0 && Copies.Bandwidth.Kind ==
                            orrery::models::ValueKind::Estimate};
  }
  /// The provider's notification mode (auto): MR counters where the
  /// provider has them (cxi, sockets), else remote CQ data.
  NotifyMode Notify = NotifyMode::CqData;

  static SimCosts fromMachine(const orrery::models::Machine &M);
  /// "put=0.4us get=0.4us ... inject=192" for describe().
  std::string str() const;
};

/// The notification mode a provider grants: mr_counter for providers with
/// per-MR counters (cxi, sockets), cq_data for the others.
NotifyMode notifyModeOf(const std::string &Provider);

/// Resolves a requested mode (auto, or forced by RAMC_NOTIFY) against what
/// the modelled provider grants. False with Err when the provider has no
/// MR counters and mr_counter was forced.
bool chooseNotifyMode(NotifyMode Requested, const SimCosts &C, NotifyMode &Out,
                      std::string &Err);

} // namespace ramc::sim

#endif
