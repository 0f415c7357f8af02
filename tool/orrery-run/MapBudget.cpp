//===- MapBudget.cpp - Will the ranks fit in vm.max_map_count? ------------===//

#include "MapBudget.h"

#include <cstdlib>
#include <fstream>

namespace orrery::run {

unsigned long estimatedMappings(unsigned Ranks, unsigned PerCopy) {
  unsigned long N = Ranks;
  return BaseMappings + N * PerCopy +
         (N + RanksPerHeapMapping - 1) / RanksPerHeapMapping;
}

std::optional<unsigned long> mappingLimit() {
  unsigned long Limit = 0;
  if (const char *E = std::getenv("ORRERY_MAX_MAP_COUNT")) {
    char *End = nullptr;
    Limit = std::strtoul(E, &End, 10);
    if (End != E && *End == '\0' && Limit > 0)
      return Limit;
  }
  std::ifstream In("/proc/sys/vm/max_map_count");
  if (In >> Limit && Limit > 0)
    return Limit;
  return std::nullopt;
}

std::string mappingWarning(unsigned Ranks, unsigned PerCopy,
                           unsigned long Limit) {
  unsigned long Need = estimatedMappings(Ranks, PerCopy);
  if (Need <= Limit)
    return "";
  // Leave room for large device arrays (SMPI_SHARED_MALLOC blocks) too.
  unsigned long Suggest = (Need * 2 + 65535) / 65536 * 65536;
  // The most ranks the current limit holds (the estimate grows with them).
  unsigned Fit = 0;
  for (unsigned Lo = 0, Hi = Ranks; Lo <= Hi && Hi > 0;) {
    unsigned Mid = Lo + (Hi - Lo) / 2;
    if (estimatedMappings(Mid, PerCopy) <= Limit) {
      Fit = Mid;
      Lo = Mid + 1;
    } else {
      if (Mid == 0)
        break;
      Hi = Mid - 1;
    }
  }
  return std::to_string(Ranks) + " ranks need about " + std::to_string(Need) +
         " memory mappings (" + std::to_string(PerCopy) +
         " per rank: SMPI maps a private copy of the program for every rank, "
         "all in one process; and about one per " +
         std::to_string(RanksPerHeapMapping) +
         " ranks of actor stacks), more than vm.max_map_count allows (" +
         std::to_string(Limit) + "), which holds about " + std::to_string(Fit) +
         " ranks; the simulation would fail when mmap does. Raise the limit "
         "first, e.g. sudo sysctl -w vm.max_map_count=" +
         std::to_string(Suggest);
}

} // namespace orrery::run
