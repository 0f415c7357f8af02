//===- GroupMaps.cpp - SimGrid 3.32's MPI groups, sized by their members --===//
//
// An SMPI group (smpi::Group) maps its ranks to actor ids and back; the way
// back is a std::vector<int> indexed by actor id, as long as the group's
// largest id. A node's communicator (MPI_Comm_split_type, SMPI's
// find_intra_comm) has a few members whose ids spread over the whole run, so
// each rank's copy holds about as many ints as the run has actors: 4 bytes x
// ranks x ranks in all. At 65,536 GPUs that is 16 GiB (docs/performance.md,
// "16,384 and 65,536 GPUs"); SimGrid 3.32 has no other way.
//
// This part of liborrery-simgrid-fixes replaces Group::set_mapping and
// Group::rank (the only functions that touch that vector; the group's copy
// constructor copies it whole, whatever it holds). A group whose ids stay
// below four times its size plus 1,024 (ORRERY_GROUP_MAP_SLACK, for tests)
// keeps SimGrid's vector, indexed by id, and SimGrid answers for it
// (MPI_COMM_WORLD, and any group of a small run). A group whose ids go
// further keeps, in the same vector, a marker and then its (id, rank) pairs
// sorted by id, and answers by binary search, with SimGrid's fallback (an
// actor that is not a member answers with its parent's rank): a node's
// group of 4 ranks holds 9 ints. Nothing changes what a group answers.
//
// ORRERY_SIMGRID_FIXES=0 turns it off; =verbose prints what it did.
//
//===----------------------------------------------------------------------===//

#include "SimgridFixes.h"

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

using orrery::simgrid_fixes::real;

namespace {

using SetMappingFn = void (*)(void *, long, int);
using RankFn = int (*)(const void *, long);
using ActorByPidFn = void *(*)(long);
using ActorPpidFn = long (*)(const void *);

#define SET_MAPPING_SYMBOL "_ZN7simgrid4smpi5Group11set_mappingEli"
#define RANK_SYMBOL "_ZNK7simgrid4smpi5Group4rankEl"

// SimGrid 3.32's smpi::Group (src/smpi/include/smpi_group.hpp) and its base
// smpi::F2C (smpi_f2c.hpp), whose members come first: a mirror of their
// layout under the Itanium C++ ABI, to reach the two vectors.
struct F2CMirror {
  virtual ~F2CMirror() = default;
  int F2cId = -1;
  bool Deleted = false;
  std::string CallLocation;
};
struct GroupMirror : F2CMirror {
  std::vector<long> RankToPid;
  std::vector<int> PidToRank;
  int Refcount = 1;
};

constexpr int kUndefined = -333; // MPI_UNDEFINED in SimGrid 3.32's smpi.h
/// First element of a vector of sorted (id, rank) pairs; never a rank.
constexpr int kPairs = INT_MIN + 1;

struct State {
  bool Decided = false, On = false;
  SetMappingFn RealSetMapping = nullptr;
  RankFn RealRank = nullptr;
  ActorByPidFn ActorByPid = nullptr;
  ActorPpidFn ActorPpid = nullptr;
  unsigned long long Paired = 0, Indexed = 0;
  /// Ids beyond four times a group's size that it keeps indexed.
  unsigned long Slack = 1024;
};

State &state() { return orrery::simgrid_fixes::lastingState<State>(); }

void printStats() {
  const State &S = state();
  std::fprintf(stderr,
               "orrery: SimGrid fix (group maps): %s; %llu mappings kept as "
               "pairs, %llu indexed by actor id\n",
               S.On ? "active" : "off", S.Paired, S.Indexed);
}

State &decided() {
  State &S = state();
  if (!S.Decided) {
    S.Decided = true;
    S.ActorByPid =
        reinterpret_cast<ActorByPidFn>(dlsym(RTLD_DEFAULT, "sg_actor_by_pid"));
    S.ActorPpid =
        reinterpret_cast<ActorPpidFn>(dlsym(RTLD_DEFAULT, "sg_actor_get_ppid"));
    S.On = orrery::simgrid_fixes::fixAllowed(printStats) && S.ActorByPid &&
           S.ActorPpid;
    // Testing: small runs have small ids; a smaller slack makes their
    // groups keep pairs too.
    if (const char *V = std::getenv("ORRERY_GROUP_MAP_SLACK"))
      S.Slack = std::strtoul(V, nullptr, 10);
  }
  return S;
}

bool densePlace(const State &S, size_t Size, long Pid) {
  return static_cast<unsigned long>(Pid) < 4 * Size + S.Slack;
}

/// Pairs in Map (after its marker), as (id, rank) at [1 + 2i], [2 + 2i].
size_t pairCount(const std::vector<int> &Map) { return (Map.size() - 1) / 2; }

/// The index of the first pair whose id is at least Pid.
size_t lowerPair(const std::vector<int> &Map, long Pid) {
  size_t Lo = 0, Hi = pairCount(Map);
  while (Lo < Hi) {
    size_t Mid = (Lo + Hi) / 2;
    if (Map[1 + 2 * Mid] < Pid)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return Lo;
}

bool hasPairs(const std::vector<int> &Map) {
  return !Map.empty() && Map[0] == kPairs;
}

/// The rank of Pid in a map of pairs.
int lookup(const std::vector<int> &Map, long Pid) {
  if (Pid < 0)
    return kUndefined;
  size_t I = lowerPair(Map, Pid);
  return I < pairCount(Map) && Map[1 + 2 * I] == Pid ? Map[2 + 2 * I]
                                                     : kUndefined;
}

/// Turns an indexed map into pairs.
void toPairs(std::vector<int> &Map) {
  std::vector<int> Pairs{kPairs};
  for (size_t Pid = 0; Pid < Map.size(); ++Pid)
    if (Map[Pid] != kUndefined) {
      Pairs.push_back(static_cast<int>(Pid));
      Pairs.push_back(Map[Pid]);
    }
  Map.swap(Pairs);
}

} // namespace

extern "C" {
void orreryGroupSetMapping(void *Group, long Pid, int Rank)
    ORRERY_REPLACES(SET_MAPPING_SYMBOL);
int orreryGroupRank(const void *Group, long Pid) ORRERY_REPLACES(RANK_SYMBOL);
}

void orreryGroupSetMapping(void *Group, long Pid, int Rank) {
  State &S = decided();
  SetMappingFn Real = real(S.RealSetMapping, SET_MAPPING_SYMBOL);
  if (!S.On)
    return Real(Group, Pid, Rank);
  auto *G = static_cast<GroupMirror *>(Group);
  size_t Size = G->RankToPid.size();
  if (Rank < 0 || static_cast<size_t>(Rank) >= Size)
    return; // as SimGrid: nothing
  std::vector<int> &Map = G->PidToRank;
  bool Pairs = hasPairs(Map);
  if (!Pairs && (static_cast<unsigned long>(Pid) < Map.size() ||
                 densePlace(S, Size, Pid))) {
    ++S.Indexed;
    return Real(Group, Pid, Rank);
  }
  ++S.Paired;
  if (!Pairs)
    toPairs(Map);
  G->RankToPid[Rank] = Pid;
  size_t I = lowerPair(Map, Pid);
  if (I < pairCount(Map) && Map[1 + 2 * I] == Pid) {
    Map[2 + 2 * I] = Rank;
    return;
  }
  int Pair[2] = {static_cast<int>(Pid), Rank};
  Map.insert(Map.begin() + 1 + 2 * I, Pair, Pair + 2);
}

int orreryGroupRank(const void *Group, long Pid) {
  State &S = decided();
  RankFn Real = real(S.RealRank, RANK_SYMBOL);
  const std::vector<int> &Map =
      static_cast<const GroupMirror *>(Group)->PidToRank;
  if (!S.On || !hasPairs(Map))
    return Real(Group, Pid); // SimGrid's own map: SimGrid answers
  int Rank = lookup(Map, Pid);
  if (Rank != kUndefined)
    return Rank;
  // Not a member: maybe its parent is (SimGrid's own fallback).
  if (void *Actor = S.ActorByPid(Pid))
    Rank = lookup(Map, S.ActorPpid(Actor));
  return Rank;
}
