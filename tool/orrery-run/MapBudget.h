//===- MapBudget.h - Will the ranks fit in vm.max_map_count? ----*- C++ -*-===//
//
// All simulated ranks live in one process, and SMPI maps a private copy of the
// program for each (smpi/privatization:dlopen). Linux caps a process's
// mappings at vm.max_map_count (65,530 by default); past it, mmap fails deep
// inside SimGrid. orrery-run estimates the count before it starts and says
// what to raise.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_RUN_MAPBUDGET_H
#define ORRERY_TOOL_RUN_MAPBUDGET_H

#include <optional>
#include <string>

namespace orrery::run {

/// Mappings of the simulator process itself (SimGrid, the C++ runtime,
/// liborrery-sim, the platform): measured as 187 to 193 with the Jacobi
/// example at 64 ranks.
constexpr unsigned BaseMappings = 200;

/// Anonymous mappings that grow with the rank count (actor stacks and other
/// blocks large enough for malloc to map them; the kernel merges adjacent
/// ones): measured 0.18 to 0.28 per rank at 1,024 ranks, so one per 4 ranks.
constexpr unsigned RanksPerHeapMapping = 4;

/// The estimated number of mappings of a run of \p Ranks copies of a program
/// that takes \p PerCopy mappings per copy: the base, the copies and the
/// heap's share.
unsigned long estimatedMappings(unsigned Ranks, unsigned PerCopy);

/// The process mapping limit: $ORRERY_MAX_MAP_COUNT if set (for tests), else
/// /proc/sys/vm/max_map_count; nothing when neither can be read.
std::optional<unsigned long> mappingLimit();

/// A warning naming the estimate, the limit and the sysctl to raise it with,
/// or an empty string when the run fits.
std::string mappingWarning(unsigned Ranks, unsigned PerCopy,
                           unsigned long Limit);

} // namespace orrery::run

#endif // ORRERY_TOOL_RUN_MAPBUDGET_H
