//===- Messages.cpp - Point-to-point messages in flight -------------------===//

#include "Messages.h"
#include "NetworkFactors.h"
#include "ranks/Runtime.h"

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace orrery::sim {

namespace {

/// Messages not yet matched, by destination rank. A destination keeps at
/// most this many (older ones were never received by instrumented code).
constexpr std::size_t MaxPending = 4096;

/// Messages posted and not yet matched, by destination world rank (indexed:
/// a hash table's bucket and node were two cache misses per message at
/// thousands of ranks).
std::vector<std::deque<SentMessage>> &pending() {
  static std::vector<std::deque<SentMessage>> P;
  return P;
}

} // namespace

void postMessage(const SentMessage &M) {
  std::vector<std::deque<SentMessage>> &P = pending();
  if (M.Dst < 0)
    return;
  if (static_cast<std::size_t>(M.Dst) >= P.size())
    P.resize(static_cast<std::size_t>(M.Dst) + 1);
  std::deque<SentMessage> &Q = P[static_cast<std::size_t>(M.Dst)];
  if (Q.size() >= MaxPending)
    Q.pop_front();
  Q.push_back(M);
}

std::uint64_t communicatorKey(const std::vector<int> &WorldRanks) {
  // FNV-1a over the ranks; 0 is reserved for "unknown".
  std::uint64_t H = 1469598103934665603ull;
  for (int R : WorldRanks) {
    H ^= static_cast<std::uint32_t>(R);
    H *= 1099511628211ull;
  }
  return H == AnyComm ? 1 : H;
}

std::optional<SentMessage> matchMessage(const MatchKey &K, int Dst,
                                        double Bytes) {
  std::vector<std::deque<SentMessage>> &P = pending();
  if (Dst < 0 || static_cast<std::size_t>(Dst) >= P.size())
    return std::nullopt;
  auto Matches = [&K](const SentMessage &M) {
    return (K.Src < 0 || M.Src == K.Src) &&
           (K.Tag == AnyTag || M.Tag == AnyTag || M.Tag == K.Tag) &&
           (K.Comm == AnyComm || M.Comm == AnyComm || M.Comm == K.Comm);
  };
  std::deque<SentMessage> &Q = P[static_cast<std::size_t>(Dst)];
  for (auto M = Q.begin(); M != Q.end(); ++M)
    if (Matches(*M) && M->Bytes <= Bytes) {
      SentMessage Out = *M;
      Q.erase(M);
      return Out;
    }
  return std::nullopt;
}

RouteFigures routeOf(s4u::Host *From, s4u::Host *To, double Bytes) {
  struct Route {
    std::vector<s4u::Link *> Links;
    RouteFigures Figures;
    RouteKind Kind = RouteKind::Network;
  };
  // Hashed: looked up for every message, over thousands of host pairs.
  struct PairHash {
    std::size_t operator()(const std::pair<s4u::Host *, s4u::Host *> &P) const {
      std::hash<const void *> H;
      return H(P.first) * 31 + H(P.second);
    }
  };
  static std::unordered_map<std::pair<s4u::Host *, s4u::Host *>, Route,
                            PairHash>
      Cache;
  if (!From || !To || From == To)
    return {0, std::numeric_limits<double>::infinity()};
  auto [It, New] = Cache.try_emplace({From, To});
  Route &R = It->second;
  if (New) {
    From->route_to(To, R.Links, &R.Figures.Latency);
    R.Figures.Bandwidth = std::numeric_limits<double>::infinity();
    for (const s4u::Link *L : R.Links)
      R.Figures.Bandwidth = std::min(R.Figures.Bandwidth, L->get_bandwidth());
    R.Kind = routeKind(R.Links);
  }
  auto [LatencyFactor, BandwidthFactor] =
      sharedMemoryBandFactors(Bytes, R.Kind);
  return {R.Figures.Latency * LatencyFactor,
          R.Figures.Bandwidth * BandwidthFactor};
}

void checkPhysicalBound(const orrery_site *Site, double Bytes, double Seconds,
                        double Bound) {
  // Rounding of the simulated clock and SMPI's envelope: a thousandth.
  if (Seconds >= Bound * 0.999)
    return;
  // One warning per call site (the report counts repeats), worded after
  // its first violation.
  static std::map<const orrery_site *, std::string> First;
  auto [It, New] = First.try_emplace(Site);
  if (New) {
    char Text[512];
    std::snprintf(Text, sizeof Text,
                  "physical bound: %s at %s:%u moved %.0f B in %.3g us, "
                  "less than its route's latency + bytes / bottleneck "
                  "bandwidth (%.3g us)",
                  Site ? Site->api : "a message", Site ? Site->file : "?",
                  Site ? Site->line : 0u, Bytes, Seconds * 1e6, Bound * 1e6);
    It->second = Text;
    std::fprintf(stderr, "liborrery-sim: warning: %s\n", Text);
  }
  Runtime::get().report().warn(It->second);
}

} // namespace orrery::sim
