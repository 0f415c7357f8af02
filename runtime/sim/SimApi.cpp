//===- SimApi.cpp - liborrery-sim's services to simulated libraries -------===//

#include "DeviceMemory.h"
#include "MpiCost.h"
#include "NetworkFactors.h"
#include "orrery/sim/Api.h"

#include "orrery/models/Platform.h"

#include <simgrid/s4u/Link.hpp>
#include <xbt/config.hpp>

#include <algorithm>
#include <limits>
#include <map>

namespace orrery::sim::api {

const models::Machine &machine() { return Runtime::get().machine(); }
bool idealNetwork() { return Runtime::get().idealNetwork(); }
int rank() { return Runtime::get().rank().Id; }
int node() { return Runtime::get().rank().Node; }
simgrid::s4u::Host *cpuHost() { return Runtime::get().rank().Cpu; }
int nodeOfRank(int R) { return R / Runtime::get().ranksPerNode(); }
bool isDeviceMemory(const void *P) { return DeviceMemory::get().isDevice(P); }

void chargeDeviceLeg(const void *Buf, double Bytes, int Peer, bool Sending) {
  Rank &R = Runtime::get().rank();
  chargeLeg(R, legOf(R, Buf, Bytes, Peer, 0, Sending));
}

void chargeCallOverhead(double Seconds, bool Estimate) {
  Runtime &RT = Runtime::get();
  RT.cpuWait(RT.rank(), Category::CallOverhead, Seconds, Estimate);
}

void chargeOverheadAndNetwork(double Overhead, bool Estimate, double Network) {
  Runtime &RT = Runtime::get();
  RT.cpuWait(RT.rank(),
             {{Category::CallOverhead, Overhead}, {Category::Network, Network}},
             Estimate);
}

namespace {

/// A route's latency, bottleneck bandwidth and whether it crosses a NIC.
struct RouteFacts {
  double Latency = 0;
  double Bandwidth = std::numeric_limits<double>::infinity();
  bool GpuOnly = false;
};

const RouteFacts &routeFacts(const s4u::Host *From, const s4u::Host *To) {
  static std::map<std::pair<const void *, const void *>, RouteFacts> Cache;
  auto [It, New] = Cache.try_emplace({From, To});
  if (New) {
    std::vector<s4u::Link *> Links;
    From->route_to(To, Links, &It->second.Latency);
    It->second.GpuOnly = !Links.empty();
    for (const s4u::Link *L : Links) {
      It->second.Bandwidth = std::min(It->second.Bandwidth, L->get_bandwidth());
      if (!models::isGpuLink(L->get_name()))
        It->second.GpuOnly = false;
    }
  }
  return It->second;
}

/// SMPI's factor table from \p Option (factors of 1 when malformed, as the
/// network model's callbacks do).
FactorTable factorTable(const char *Option) {
  FactorTable T;
  std::string Error;
  if (!T.parse(simgrid::config::get_value<std::string>(Option), Error))
    T = FactorTable();
  return T;
}

} // namespace

double messageSeconds(const s4u::Host *From, const s4u::Host *To,
                      double Bytes) {
  const RouteFacts &R = routeFacts(From, To);
  double Lat = 1, Bw = 1;
  if (!R.GpuOnly && !idealNetwork()) {
    static const FactorTable LatTable = factorTable("smpi/lat-factor");
    static const FactorTable BwTable = factorTable("smpi/bw-factor");
    Lat = LatTable.at(Bytes);
    Bw = BwTable.at(Bytes);
  }
  double Seconds = R.Latency * Lat;
  if (Bytes > 0 && R.Bandwidth > 0 &&
      R.Bandwidth < std::numeric_limits<double>::infinity())
    Seconds += Bytes / (R.Bandwidth * Bw);
  return Seconds;
}

} // namespace orrery::sim::api
