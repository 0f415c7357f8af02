//===- NetworkFactors.cpp - Factor callbacks ------------------------------===//

#include "NetworkFactors.h"

#include "orrery/models/Platform.h"

#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>

namespace orrery::sim {

namespace s4u = simgrid::s4u;

bool FactorTable::parse(const std::string &Spec, std::string &Error) {
  Steps.clear();
  std::stringstream SS(Spec);
  std::string Item;
  while (std::getline(SS, Item, ';')) {
    if (Item.find_first_not_of(" \t") == std::string::npos)
      continue;
    std::size_t Colon = Item.find(':');
    char *End = nullptr;
    double Threshold = std::strtod(Item.c_str(), &End);
    if (Colon == std::string::npos || End != Item.c_str() + Colon) {
      Error = "'" + Item + "' is not threshold:factor";
      return false;
    }
    double Factor = std::strtod(Item.c_str() + Colon + 1, &End);
    if (End == Item.c_str() + Colon + 1 || Factor <= 0) {
      Error = "'" + Item + "' has no positive factor";
      return false;
    }
    Steps.push_back({Threshold, Factor});
  }
  std::sort(Steps.begin(), Steps.end());
  return true;
}

double FactorTable::at(double Bytes) const {
  double F = 1;
  for (const auto &[Threshold, Factor] : Steps)
    if (Threshold <= Bytes)
      F = Factor;
  return F;
}

/// At most this many bytes SMPI adds to a message's payload.
constexpr double EnvelopeSlack = 64;

/// Announced flows not yet started, by source and destination host and size.
using Announced =
    std::map<std::tuple<const void *, const void *, double>, unsigned>;
static Announced &payloadFree() {
  static Announced M;
  return M;
}
/// Announced flow starts, oldest first, by source, destination and size.
using AnnouncedFlows = std::map<std::tuple<const void *, const void *, double>,
                                std::deque<FlowStart>>;
static AnnouncedFlows &announcedFlows() {
  static AnnouncedFlows M;
  return M;
}

void expectPayloadFreeMessage(const void *Src, const void *Dst, double Bytes) {
  ++payloadFree()[{Src, Dst, Bytes}];
}

void expectFlow(const void *Src, const void *Dst, double Bytes, FlowStart F) {
  // Keyed as the callback sees the flow's size: a whole number of bytes.
  double Whole = static_cast<double>(static_cast<std::uint64_t>(Bytes));
  announcedFlows()[{Src, Dst, Whole}].push_back(F);
}

/// Consumes the start announced for a flow from \p Src to \p Dst of
/// exactly \p Bytes, if any.
static std::optional<FlowStart> takeFlow(const s4u::Host *Src,
                                         const s4u::Host *Dst, double Bytes) {
  AnnouncedFlows &M = announcedFlows();
  auto It = M.find({Src, Dst, Bytes});
  if (It == M.end())
    return std::nullopt;
  FlowStart F = It->second.front();
  It->second.pop_front();
  if (It->second.empty())
    M.erase(It);
  return F;
}

/// Consumes an announcement of \p M for a flow from \p Src to \p Dst of
/// \p Bytes, up to \p Slack bytes more than announced.
static bool take(Announced &M, const s4u::Host *Src, const s4u::Host *Dst,
                 double Bytes, double Slack) {
  auto It = M.lower_bound({Src, Dst, Bytes - Slack});
  if (It == M.end() || std::get<0>(It->first) != Src ||
      std::get<1>(It->first) != Dst || std::get<2>(It->first) > Bytes)
    return false;
  if (--It->second == 0)
    M.erase(It);
  return true;
}

/// The class of \p L from its name, worked out once per link: the factor
/// callbacks ask about every link of every flow, and the name is a string
/// compared piece by piece. (Kept in an extension slot of the link: no
/// lookup beside the link itself, which SimGrid has just read.)
static models::LinkClass classOf(const s4u::Link *L) {
  static const std::size_t Slot =
      s4u::Link::extension_create(std::function<void(void *)>());
  if (void *Known = L->extension(Slot))
    return static_cast<models::LinkClass>(
        reinterpret_cast<std::uintptr_t>(Known) - 1);
  models::LinkClass C = models::classifyLink(L->get_name());
  const_cast<s4u::Link *>(L)->extension_set(
      Slot, reinterpret_cast<void *>(static_cast<std::uintptr_t>(C) + 1),
      /*use_dtor=*/false);
  return C;
}

RouteKind routeKind(const std::vector<s4u::Link *> &Links) {
  if (Links.empty())
    return RouteKind::Network;
  bool AllSharedMemory = true;
  for (const s4u::Link *L : Links) {
    models::LinkClass C = classOf(L);
    if (!models::isIntraNodeLink(C))
      return RouteKind::Network;
    AllSharedMemory = AllSharedMemory && C == models::LinkClass::SharedMemory;
  }
  return AllSharedMemory ? RouteKind::SharedMemory : RouteKind::IntraNode;
}

static FactorTable readTable(const char *Option) {
  FactorTable T;
  std::string Error;
  const std::string &Spec = simgrid::config::get_value<std::string>(Option);
  if (!T.parse(Spec, Error)) {
    std::fprintf(stderr,
                 "liborrery-sim: warning: --cfg=%s: %s; using factor 1\n",
                 Option, Error.c_str());
    T = FactorTable();
  }
  return T;
}

namespace {
/// The factors in force, set once by installNetworkFactors.
struct Factors {
  FactorTable Bw, Lat;
  bool GpuLinksNeutral = true; ///< false: the user's tables apply everywhere
  /// node.shm_transport: its links carry the largest band's figures
  /// (models::writePlatform), each message gets its band's.
  models::SharedMemoryModel Shm;
};
Factors &factors() {
  static Factors F;
  return F;
}
} // namespace

std::pair<double, double> sharedMemoryBandFactors(double Bytes, RouteKind K) {
  const Factors &F = factors();
  if (!F.GpuLinksNeutral || K != RouteKind::SharedMemory)
    return {1.0, 1.0};
  auto [Latency, Bandwidth] = F.Shm.at(Bytes);
  double MaxLatency = F.Shm.maxLatency(), MaxBandwidth = F.Shm.maxBandwidth();
  return {MaxLatency > 0 ? Latency / MaxLatency : 1.0,
          MaxBandwidth > 0 ? Bandwidth / MaxBandwidth : 1.0};
}

namespace {
/// The latency (\p Table is &Factors::Lat) or bandwidth factor of \p Bytes
/// over \p L, \p Table the user's or SMPI's for it.
double factorOf(double Bytes, const std::vector<s4u::Link *> &L,
                FactorTable Factors::*Table) {
  const Factors &F = factors();
  if (!F.GpuLinksNeutral)
    return (F.*Table).at(Bytes);
  RouteKind K = routeKind(L);
  if (K == RouteKind::SharedMemory) {
    auto [LatencyFactor, BandwidthFactor] = sharedMemoryBandFactors(Bytes, K);
    return Table == &Factors::Lat ? LatencyFactor : BandwidthFactor;
  }
  return K == RouteKind::IntraNode ? 1.0 : (F.*Table).at(Bytes);
}
} // namespace

double latencyFactor(double Bytes, const std::vector<s4u::Link *> &L) {
  return factorOf(Bytes, L, &Factors::Lat);
}

double bandwidthFactor(double Bytes, const std::vector<s4u::Link *> &L) {
  return factorOf(Bytes, L, &Factors::Bw);
}

void installNetworkFactors(bool Ideal,
                           const models::SharedMemoryModel &SharedMemory) {
  static bool Installed = false;
  if (Installed || !s4u::Engine::is_initialized())
    return;
  auto *Model =
      s4u::Engine::get_instance()->get_netzone_root()->get_network_model();
  if (!Model)
    return;
  Installed = true;
  Factors &F = factors();
  F.Shm = SharedMemory;
  // SimGrid refuses callbacks when a factor option was set by the user
  // (--cfg=smpi/bw-factor:...); the user's factors then apply everywhere.
  for (const char *Option :
       {"smpi/bw-factor", "smpi/lat-factor", "network/bandwidth-factor",
        "network/latency-factor"})
    if (!simgrid::config::is_default(Option)) {
      std::fprintf(stderr,
                   "liborrery-sim: warning: --cfg=%s is set, so PCIe and "
                   "NVLink flows keep those network factors and "
                   "node.shm_transport.bands are ignored; leave it unset "
                   "(orrery-run --network ideal gives factors of 1)\n",
                   Option);
      F.Bw = readTable("smpi/bw-factor");
      F.Lat = readTable("smpi/lat-factor");
      F.GpuLinksNeutral = false;
      return;
    }
  if (!Ideal) {
    F.Bw = readTable("smpi/bw-factor");
    F.Lat = readTable("smpi/lat-factor");
  }
  using Links = std::vector<s4u::Link *>;
  using Zones = std::unordered_set<s4u::NetZone *>;
  Model->set_bw_factor_cb([](double Size, const s4u::Host *Src,
                             const s4u::Host *Dst, const Links &L,
                             const Zones &) {
    // Called once per message, when it starts.
    // SMPI's message is the payload plus a small envelope (16 bytes in
    // 3.32).
    if (take(payloadFree(), Src, Dst, Size, EnvelopeSlack))
      return 1e9;
    return bandwidthFactor(Size, L);
  });
  Model->set_lat_factor_cb([](double Size, const s4u::Host *Src,
                              const s4u::Host *Dst, const Links &L,
                              const Zones &) {
    std::optional<FlowStart> F = takeFlow(Src, Dst, Size);
    if (!F)
      return latencyFactor(Size, L);
    // SimGrid multiplies the route's latency by this factor.
    double Route = 0;
    for (const s4u::Link *Link : L)
      Route += Link->get_latency();
    if (Route <= 0)
      return F->Latency >= 0 ? 0.0 : latencyFactor(Size, L);
    double Latency =
        F->Latency >= 0 ? F->Latency : latencyFactor(Size, L) * Route;
    return (Latency + F->Delay) / Route;
  });
}

} // namespace orrery::sim
