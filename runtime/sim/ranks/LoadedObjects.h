//===- LoadedObjects.h - The loaded object holding an address ----*- C++
//-*-===//
//
// SMPI's dlopen privatization loads one copy of the program per rank, so a
// simulation of 65,536 ranks has 65,536 loaded objects. dladdr walks them in
// load order to find the one holding an address, and a rank's own copy is
// among the last: asking once per rank costs time quadratic in the ranks
// (14 % of the start-up of 16,384 ranks, when each copy's kernel table asked
// for its object). glibc 2.35's _dl_find_object answers from a sorted table
// instead; dladdr stays the fallback where it is missing. Every use of dladdr
// in liborrery-sim is here: before it, the program copies
// liborrery-simgrid-fixes keeps out of glibc's list while ranks start
// (ranks/ProgramCopies.cpp) are put back, or dladdr would not see them.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_LOADEDOBJECTS_H
#define ORRERY_SIM_LOADEDOBJECTS_H

#include <optional>
#include <string>

namespace orrery::sim {

struct LoadedObject {
  /// Where its mapping starts (dladdr's dli_fbase): the same value for
  /// every address in the object, distinct between a program's copies.
  const void *Start = nullptr;
  /// Its file as loaded (a rank's copy may be removed since).
  std::string File;
};

/// The loaded object holding \p Address, if any.
std::optional<LoadedObject> loadedObject(const void *Address);

/// Where the loaded object holding \p Address starts; nullptr if none.
const void *loadedObjectStart(const void *Address);

/// The name of the symbol holding \p Address (dladdr's dli_sname), if any.
std::optional<std::string> symbolAt(const void *Address);

} // namespace orrery::sim

#endif
