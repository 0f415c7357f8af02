//===- Placement.h - Ranks onto nodes ---------------------------*- C++ -*-===//

#ifndef ORRERY_TOOL_RUN_PLACEMENT_H
#define ORRERY_TOOL_RUN_PLACEMENT_H

#include <string>

namespace orrery::run {

struct Placement {
  int Nodes = 1;
  int RanksPerNode = 1; ///< rank r runs on node r / RanksPerNode
};

/// Places \p Ranks ranks. \p Nodes and \p RanksPerNode are the options (0 when
/// not given): ranks per node default to \p GpusPerNode, nodes to
/// ceil(Ranks / ranks per node). False with \p Error naming the options if
/// the nodes cannot hold the ranks.
bool placeRanks(int Ranks, int GpusPerNode, int Nodes, int RanksPerNode,
                Placement &Out, std::string &Error);

} // namespace orrery::run

#endif // ORRERY_TOOL_RUN_PLACEMENT_H
