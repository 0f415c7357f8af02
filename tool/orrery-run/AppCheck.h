//===- AppCheck.h - Is the program something smpirun can load? --*- C++ -*-===//
//
// smpirun loads the program as a shared object, once per rank. An Orrery
// skeleton is linked that way by orrery-cxx; a plain executable (even a
// position-independent one) is not loadable and fails deep inside SimGrid.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_RUN_APPCHECK_H
#define ORRERY_TOOL_RUN_APPCHECK_H

#include <string>
#include <vector>

namespace orrery::run {

struct ProgramInfo {
  std::vector<std::string> Needed; ///< DT_NEEDED entries, in order
  /// Memory mappings one loaded copy of the program takes (SMPI loads one
  /// copy per rank).
  unsigned MappingsPerCopy = 0;
  /// True if the program links liborrery-sim (a skeleton or twin build).
  bool usesOrrerySim() const;
};

/// Returns false with \p Error (naming \p Path and what to do) unless the
/// file is an ELF shared object without a program interpreter; fills \p Info.
bool inspectProgram(const std::string &Path, ProgramInfo &Info,
                    std::string &Error);

} // namespace orrery::run

#endif // ORRERY_TOOL_RUN_APPCHECK_H
