//===- Collectives.cpp - SMPI collective algorithms per selector ----------===//
//
// Open MPI 4.1 coll/tuned (coll_tuned_decision_fixed.c) chooses an algorithm
// from the communicator size and the message size. SMPI takes one algorithm
// per collective for the whole run, so the table below evaluates Open MPI's
// rules at each collective's typical message size in GPU applications:
//
//   allreduce, reduce        8 B (one double: norms, dot products, time steps)
//   bcast                    up to 2 KiB (parameters)
//   allgather(v), gather,    8 B per rank (counts, offsets)
//   scatter
//   alltoall                 64 KiB per pair (transposes, halo packing)
//   alltoallv, barrier       Open MPI decides on the communicator size only
//   reduce_scatter           64 KiB in total
//
// Where SMPI lacks Open MPI's algorithm the nearest one is used: knomial and
// binary-tree broadcasts become SMPI's binomial tree, linear_sync alltoall
// becomes basic_linear, pairwise becomes SMPI's ring (same exchange pattern;
// SMPI's "pair" needs a power-of-two size). Open MPI's ring and segmented-ring
// allreduce fall back to recursive doubling when count < ranks, so for 8 B they
// are `rdb`; its "nonoverlapping" allreduce is a reduce followed by a bcast
// (`redbcast`, which uses the reduce and bcast chosen here, as Open MPI's
// does). Deviations, each measured with SMPI 3.32: linear alltoall(v) only
// below LinearLimit ranks, and on one rank algorithms SMPI gets wrong are
// avoided. docs/orrery-run.md has the table as a user sees it.
//
//===----------------------------------------------------------------------===//

#include "Collectives.h"

#include <climits>

namespace orrery::run {

namespace {

/// The algorithm used while the rank count is below Below.
struct Band {
  int Below;
  const char *Algorithm;
};

struct Rule {
  const char *Collective;
  std::vector<Band> Bands;
};

constexpr int AnySize = INT_MAX;

/// Linear alltoall(v) posts every send and receive at once: N^2 concurrent
/// flows. On generated platforms SMPI 3.32 slows down sharply with them (one
/// 8-byte alltoall: 0.36 s of wall time at 64 ranks, 27 s at 128) and its
/// max-min solver crashes from about 80 ranks. From LinearLimit ranks on, the
/// pairwise exchange (Open MPI's "pairwise", SMPI's "ring") is used instead.
constexpr int LinearLimit = 64;

const std::vector<Rule> &openMpi41Rules() {
  static const std::vector<Rule> Rules = {
      {"allreduce", {{128, "rdb"}, {AnySize, "redbcast"}}},
      // On one rank SMPI 3.32's ompi_binary reduce aborts and its
      // ompi_butterfly reduce_scatter returns a wrong result.
      {"reduce",
       {{2, "ompi_basic_linear"},
        {32, "ompi_binary"},
        {AnySize, "ompi_binomial"}}},
      {"bcast", {{AnySize, "binomial_tree"}}},
      // Power-of-two sizes only; see openMpiTunedChoices.
      {"allgather", {{AnySize, "rdb"}}},
      {"allgatherv", {{3, "ring"}, {128, "GB"}, {AnySize, "ompi_bruck"}}},
      {"gather", {{AnySize, "ompi_binomial"}}},
      {"scatter", {{4, "ompi_basic_linear"}, {AnySize, "ompi_binomial"}}},
      {"alltoall", {{LinearLimit, "basic_linear"}, {AnySize, "ring"}}},
      {"alltoallv",
       {{4, "ring"}, {LinearLimit, "ompi_basic_linear"}, {AnySize, "ring"}}},
      {"barrier",
       {{4, "ompi_recursivedoubling"},
        {8, "ompi_basic_linear"},
        {64, "ompi_recursivedoubling"},
        {256, "ompi_bruck"},
        {512, "ompi_tree"},
        {1024, "ompi_bruck"},
        {4096, "ompi_tree"},
        {AnySize, "ompi_bruck"}}},
      {"reduce_scatter",
       {{2, "ompi_basic_recursivehalving"},
        {4, "ompi_butterfly"},
        {32, "ompi_basic_recursivehalving"},
        {AnySize, "ompi_butterfly"}}},
  };
  return Rules;
}

bool isPowerOfTwo(int N) { return N > 0 && (N & (N - 1)) == 0; }

} // namespace

std::vector<CollectiveChoice> openMpiTunedChoices(int Ranks) {
  std::vector<CollectiveChoice> Out;
  for (const Rule &R : openMpi41Rules()) {
    for (const Band &B : R.Bands) {
      if (Ranks < B.Below) {
        Out.push_back({R.Collective, B.Algorithm});
        break;
      }
    }
  }
  // Open MPI's recursive-doubling allgather switches to Bruck's algorithm on
  // communicators whose size is not a power of two.
  for (CollectiveChoice &C : Out)
    if (C.Collective == "allgather" && !isPowerOfTwo(Ranks))
      C.Algorithm = "bruck";
  return Out;
}

bool hasCollectiveTable(const std::string &Selector) {
  return Selector == "ompi";
}

} // namespace orrery::run
