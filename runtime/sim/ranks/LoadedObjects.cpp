//===- LoadedObjects.cpp - The loaded object holding an address -----------===//

#include "ranks/LoadedObjects.h"

#include <dlfcn.h>
#include <link.h>

// Defined by liborrery-simgrid-fixes when orrery-run preloads it.
extern "C" void orrery_program_copies_restore() __attribute__((weak));

namespace orrery::sim {
namespace {

/// dladdr, with every program copy back in glibc's list (nothing to do when
/// liborrery-simgrid-fixes is not preloaded).
bool dladdrWhole(const void *Address, Dl_info &Info) {
  if (orrery_program_copies_restore)
    orrery_program_copies_restore();
  return dladdr(Address, &Info) != 0;
}

/// dladdr's answer: a walk over every loaded object.
std::optional<LoadedObject> byWalk(const void *Address) {
  Dl_info Info{};
  if (!dladdrWhole(Address, Info) || !Info.dli_fbase)
    return std::nullopt;
  return LoadedObject{Info.dli_fbase, Info.dli_fname ? Info.dli_fname : ""};
}

/// glibc's sorted table (2.35 and later): the link map holding \p Address.
bool fromTable(const void *Address, const void **Start, const char **Name) {
#ifdef DLFO_STRUCT_HAS_EH_DBASE
  dl_find_object Found{};
  if (_dl_find_object(const_cast<void *>(Address), &Found) != 0)
    return false;
  *Start = Found.dlfo_map_start;
  *Name = Found.dlfo_link_map ? Found.dlfo_link_map->l_name : nullptr;
  return true;
#else
  return false;
#endif
}

} // namespace

const void *loadedObjectStart(const void *Address) {
  const void *Start = nullptr;
  const char *Name = nullptr;
  if (fromTable(Address, &Start, &Name))
    return Start;
  auto Object = byWalk(Address);
  return Object ? Object->Start : nullptr;
}

std::optional<LoadedObject> loadedObject(const void *Address) {
  const void *Start = nullptr;
  const char *Name = nullptr;
  // The main program's link map has no name; dladdr gives it argv[0].
  if (fromTable(Address, &Start, &Name) && Name && *Name)
    return LoadedObject{Start, Name};
  return byWalk(Address);
}

std::optional<std::string> symbolAt(const void *Address) {
  Dl_info Info{};
  if (!dladdrWhole(Address, Info) || !Info.dli_sname)
    return std::nullopt;
  return std::string(Info.dli_sname);
}

} // namespace orrery::sim
