//===- sim_world.cpp - what all simulated ranks share ---------------------===//
#include "sim_world.h"

#include "orrery/sim/Api.h"

#include <xbt/config.hpp>

#include <cstdio>
#include <cstdlib>

namespace ramc::sim {

namespace s4u = simgrid::s4u;

static void printStats() {
  const SimWorld::Counters &C = SimWorld::get().Stats;
  std::fprintf(stderr,
               "ramc-sim: %llu writes, %llu reads, %llu atomics, %llu polls "
               "of completions, %llu waits; %llu messages as flows, %llu "
               "timed\n",
               C.Writes, C.Reads, C.Atomics, C.Polls, C.Waits, C.Flows,
               C.Timed);
}

SimWorld &SimWorld::get() {
  // Never destroyed: flows may still hold endpoints when SimGrid tears down.
  static SimWorld *W = [] {
    const char *S = std::getenv("RAMC_SIM_STATS");
    if (S && *S && *S != '0')
      std::atexit(printStats);
    return new SimWorld;
  }();
  return *W;
}

const SimCosts &SimWorld::costs() {
  if (!HaveCosts) {
    Costs = SimCosts::fromMachine(orrery::sim::api::machine());
    HaveCosts = true;
  }
  return Costs;
}

int SimWorld::size() const {
  static int N = simgrid::config::get_value<int>("smpi/np");
  return N;
}

std::shared_ptr<SimEndpoint> SimWorld::open(int Rank, s4u::Host *Host,
                                            NotifyMode Mode) {
  auto E = std::make_shared<SimEndpoint>(Rank, NextId++, Host, Mode);
  Endpoints.emplace(E->Id, E);
  if (Rank >= 0) {
    if (static_cast<size_t>(Rank) >= Hosts.size())
      Hosts.resize(Rank + 1, nullptr);
    Hosts[Rank] = Host;
  }
  ++LiveObjects;
  return E;
}

void SimWorld::close(SimEndpoint &E) {
  if (!E.Open)
    return;
  E.Open = false;
  Endpoints.erase(E.Id);
  --LiveObjects;
}

std::shared_ptr<SimEndpoint> SimWorld::find(uint64_t Id) const {
  auto It = Endpoints.find(Id);
  return It == Endpoints.end() ? nullptr : It->second;
}

void SimWorld::wakeAll() {
  // wake() may let other actors run (a simcall), which may open or close
  // endpoints: wake a snapshot.
  std::vector<std::shared_ptr<SimEndpoint>> All;
  All.reserve(Endpoints.size());
  for (const auto &KV : Endpoints)
    All.push_back(KV.second);
  for (const auto &E : All)
    E->wake();
}

s4u::Host *SimWorld::hostOf(int Rank) const {
  return Rank >= 0 && static_cast<size_t>(Rank) < Hosts.size() ? Hosts[Rank]
                                                               : nullptr;
}

} // namespace ramc::sim
