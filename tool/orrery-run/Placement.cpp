//===- Placement.cpp - Ranks onto nodes -----------------------------------===//

#include "Placement.h"

#include <algorithm>

namespace orrery::run {

bool placeRanks(int Ranks, int GpusPerNode, int Nodes, int RanksPerNode,
                Placement &Out, std::string &Error) {
  Out.RanksPerNode = RanksPerNode > 0 ? RanksPerNode : std::max(1, GpusPerNode);
  long Needed =
      (static_cast<long>(Ranks) + Out.RanksPerNode - 1) / Out.RanksPerNode;
  if (Nodes == 0) {
    Out.Nodes = static_cast<int>(Needed);
    return true;
  }
  if (Nodes < Needed) {
    std::string Rpn = std::to_string(Out.RanksPerNode);
    Error =
        "--nodes " + std::to_string(Nodes) + " with " + Rpn +
        " ranks per node" +
        (RanksPerNode > 0 ? "" : " (the machine's GPUs per node)") + " holds " +
        std::to_string(static_cast<long>(Nodes) * Out.RanksPerNode) +
        " ranks, fewer than -np " + std::to_string(Ranks) + "; give --nodes " +
        std::to_string(Needed) + " or more, or raise --ranks-per-node";
    return false;
  }
  Out.Nodes = Nodes;
  return true;
}

} // namespace orrery::run
