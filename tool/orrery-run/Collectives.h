//===- Collectives.h - SMPI collective algorithms per selector --*- C++ -*-===//
//
// SMPI picks one algorithm per collective for the whole run. Orrery chooses
// each one explicitly instead of using SMPI's selectors (measured:
// the `ompi` selector's first Allreduce at 1,024 ranks costs ~40 s of wall
// time and simulates 7.8 ms where `rdb` simulates 60 us). The table mirrors
// the fixed decision rules of Open MPI 4.1's coll/tuned component.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_RUN_COLLECTIVES_H
#define ORRERY_TOOL_RUN_COLLECTIVES_H

#include <string>
#include <vector>

namespace orrery::run {

/// One `--cfg=smpi/<Collective>:<Algorithm>` setting.
struct CollectiveChoice {
  std::string Collective; ///< SMPI's name: allreduce, bcast, ...
  std::string Algorithm;  ///< SMPI's algorithm name: rdb, binomial_tree, ...
};

/// The algorithms Open MPI 4.1's coll/tuned fixed rules pick for a
/// communicator of \p Ranks ranks at each collective's typical message size
/// (docs/orrery-run.md lists the sizes and the rules). Sub-communicators get
/// the choice made for the whole run.
std::vector<CollectiveChoice> openMpiTunedChoices(int Ranks);

/// True if \p Selector (the machine file's mpi.collective_selector) is
/// mirrored by a table here; other selectors are passed to SMPI as
/// smpi/coll-selector.
bool hasCollectiveTable(const std::string &Selector);

} // namespace orrery::run

#endif // ORRERY_TOOL_RUN_COLLECTIVES_H
