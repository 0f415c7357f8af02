//===- SimApi.cpp - liborrery-sim's services to simulated libraries -------===//

#include "RankClock.h"
#include "gpu/DeviceMemory.h"
#include "mpi/MpiCost.h"
#include "mpi/NetworkFactors.h"
#include "orrery/sim/Api.h"

#include <simgrid/s4u/Link.hpp>
#include <xbt/config.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <string>

namespace orrery::sim::api {

const models::Machine &machine() { return Runtime::get().machine(); }
bool benchmarking() {
  static const bool On =
      simgrid::config::get_value<bool>("smpi/simulate-computation") ||
      simgrid::config::get_value<std::string>("smpi/privatization") == "mmap";
  return On;
}

bool idealNetwork() { return Runtime::get().idealNetwork(); }
int rank() { return Runtime::get().rank().Id; }
int node() { return Runtime::get().rank().Node; }
simgrid::s4u::Host *cpuHost() { return Runtime::get().rank().Cpu; }
int nodeOfRank(int R) { return R / Runtime::get().ranksPerNode(); }
bool isDeviceMemory(const void *P) { return DeviceMemory::get().isDevice(P); }

void chargeDeviceLeg(const void *Buf, double Bytes, int Peer, bool Sending) {
  Rank &R = Runtime::get().rank();
  chargeLeg(R, legOf(R, Buf, Bytes, Peer, 0, Sending));
  // The library's own simcalls follow: they happen after the charge.
  rank_clock::catchUp();
}

void chargeCallOverhead(double Seconds, bool Estimate) {
  Runtime &RT = Runtime::get();
  RT.cpuWait(RT.rank(), Category::CallOverhead, Seconds, Estimate);
  rank_clock::catchUp();
}

void chargeOverheadAndNetwork(double Overhead, bool Estimate, double Network) {
  Runtime &RT = Runtime::get();
  RT.cpuWait(RT.rank(),
             {{Category::CallOverhead, Overhead}, {Category::Network, Network}},
             Estimate);
  rank_clock::catchUp();
}

namespace {

/// A route's links, latency and bottleneck bandwidth.
struct RouteFacts {
  std::vector<s4u::Link *> Links;
  double Latency = 0;
  double Bandwidth = std::numeric_limits<double>::infinity();
};

const RouteFacts &routeFacts(const s4u::Host *From, const s4u::Host *To) {
  static std::map<std::pair<const void *, const void *>, RouteFacts> Cache;
  auto [It, New] = Cache.try_emplace({From, To});
  if (New) {
    From->route_to(To, It->second.Links, &It->second.Latency);
    for (const s4u::Link *L : It->second.Links)
      It->second.Bandwidth = std::min(It->second.Bandwidth, L->get_bandwidth());
  }
  return It->second;
}

} // namespace

double messageSeconds(const s4u::Host *From, const s4u::Host *To,
                      double Bytes) {
  Runtime::get(); // the factors are installed with the runtime
  const RouteFacts &R = routeFacts(From, To);
  double Seconds = R.Latency * latencyFactor(Bytes, R.Links);
  if (Bytes > 0 && R.Bandwidth > 0 &&
      R.Bandwidth < std::numeric_limits<double>::infinity())
    Seconds += Bytes / (R.Bandwidth * bandwidthFactor(Bytes, R.Links));
  return Seconds;
}

} // namespace orrery::sim::api
