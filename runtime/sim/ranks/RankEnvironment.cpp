//===- RankEnvironment.cpp - What a launcher tells each rank --------------===//

#include "RankEnvironment.h"
#include "Runtime.h"

#include <simgrid/actor.h>
#include <xbt/config.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>

namespace orrery::sim {

namespace {

enum class Value { Rank, Size, LocalRank, LocalSize, NodeId, Nodes };

/// Variables set by Open MPI, MVAPICH, MPICH's Hydra, Slurm, PMI/PMIx and
/// Cray PALS launchers.
const std::pair<const char *, Value> Variables[] = {
    {"OMPI_COMM_WORLD_RANK", Value::Rank},
    {"OMPI_COMM_WORLD_SIZE", Value::Size},
    {"OMPI_COMM_WORLD_LOCAL_RANK", Value::LocalRank},
    {"OMPI_COMM_WORLD_LOCAL_SIZE", Value::LocalSize},
    {"OMPI_COMM_WORLD_NODE_RANK", Value::LocalRank},
    {"MV2_COMM_WORLD_RANK", Value::Rank},
    {"MV2_COMM_WORLD_SIZE", Value::Size},
    {"MV2_COMM_WORLD_LOCAL_RANK", Value::LocalRank},
    {"MV2_COMM_WORLD_LOCAL_SIZE", Value::LocalSize},
    {"MPI_LOCALRANKID", Value::LocalRank},
    {"MPI_LOCALNRANKS", Value::LocalSize},
    {"PMI_RANK", Value::Rank},
    {"PMI_SIZE", Value::Size},
    {"PMI_LOCAL_RANK", Value::LocalRank},
    {"PMI_LOCAL_SIZE", Value::LocalSize},
    {"PMIX_RANK", Value::Rank},
    {"SLURM_PROCID", Value::Rank},
    {"SLURM_NTASKS", Value::Size},
    {"SLURM_NPROCS", Value::Size},
    {"SLURM_LOCALID", Value::LocalRank},
    {"SLURM_NODEID", Value::NodeId},
    {"SLURM_NNODES", Value::Nodes},
    {"SLURM_JOB_NUM_NODES", Value::Nodes},
    {"PALS_RANKID", Value::Rank},
    {"PALS_LOCAL_RANKID", Value::LocalRank},
    {"PALS_LOCAL_SIZE", Value::LocalSize},
};

int rankProperty() {
  sg_actor_t Self = sg_actor_self();
  if (!Self)
    return -1;
  const char *Id = sg_actor_get_property_value(Self, "rank");
  return Id ? std::atoi(Id) : -1;
}

} // namespace

bool inRankActor() { return rankProperty() >= 0; }

const char *rankEnvironment(const char *Name) {
  if (!Name)
    return nullptr;
  const Value *What = nullptr;
  for (const auto &V : Variables)
    if (std::strcmp(V.first, Name) == 0)
      What = &V.second;
  if (!What || rankProperty() < 0)
    return nullptr;
  Runtime &RT = Runtime::get();
  const Rank &R = RT.rank();
  int Ranks = Runtime::rankCount();
  int PerNode = RT.ranksPerNode();
  int Nodes = (Ranks + PerNode - 1) / PerNode;
  // orrery-run places ranks in blocks of ranks-per-node.
  int N = 0;
  switch (*What) {
  case Value::Rank:
    N = R.Id;
    break;
  case Value::Size:
    N = Ranks;
    break;
  case Value::LocalRank:
    N = R.Id - R.Node * PerNode;
    break;
  case Value::LocalSize:
    N = RT.ranksOnNode(R.Node);
    break;
  case Value::NodeId:
    N = R.Node;
    break;
  case Value::Nodes:
    N = Nodes;
    break;
  }
  // Strings live as long as the process: getenv's results are not freed.
  static auto *Strings = new std::map<std::pair<int, std::string>, std::string>;
  std::string &S = (*Strings)[{R.Id, Name}];
  S = std::to_string(N);
  return S.c_str();
}

} // namespace orrery::sim
