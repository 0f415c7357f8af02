//===- sim_barrier.h - the bootstrap's store and barrier -------*- C++ -*-===//
//
// The simulated bootstrap's shared part: the key-value records ranks publish
// (their endpoint addresses) and a barrier over all ranks. The barrier is
// released in simulated time when the last rank arrives; each rank then
// pays the cost of a dissemination barrier (one round per power of two, each
// a small message to the rank 2^k further on: the put overhead plus the
// route latency), so it neither costs nothing nor floods the network model
// with messages.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_SIM_SIM_BARRIER_H
#define RAMC_SRC_SIM_SIM_BARRIER_H

#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Mutex.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ramc::sim {

class SimBarrier {
public:
  static SimBarrier &get();

  /// The k-th bootstrap Rank creates is its serial k.
  int nextSerial(int Rank);
  void publish(int Rank, const std::string &Key, std::vector<uint8_t> Value);
  bool lookup(int Rank, const std::string &Key,
              std::vector<uint8_t> &Value) const;

  /// Waits until all Size ranks arrived. Wait blocks a little (waking on
  /// every arrival); it returns false when the caller's deadline passed,
  /// and then the rank leaves the barrier and this returns false. Without
  /// Wait the rank waits for the release without a deadline.
  bool arrive(int Rank, int Size, const std::function<bool()> &Wait);

private:
  SimBarrier() = default;
  /// Sleeps this rank's share of a dissemination barrier.
  void chargeRounds(int Rank, int Size);

  std::map<std::pair<int, std::string>, std::vector<uint8_t>> Store;
  std::vector<int> Serials; // by rank
  int Arrived = 0;
  uint64_t Generation = 0;
  simgrid::s4u::ConditionVariablePtr Released;
  simgrid::s4u::MutexPtr Mx;
};

} // namespace ramc::sim

#endif
