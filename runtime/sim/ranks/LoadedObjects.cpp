//===- LoadedObjects.cpp - The loaded object holding an address -----------===//

#include "ranks/LoadedObjects.h"

#include <dlfcn.h>
#include <link.h>

namespace orrery::sim {
namespace {

/// dladdr's answer: a walk over every loaded object.
std::optional<LoadedObject> byWalk(const void *Address) {
  Dl_info Info{};
  if (!dladdr(Address, &Info) || !Info.dli_fbase)
    return std::nullopt;
  return LoadedObject{Info.dli_fbase, Info.dli_fname ? Info.dli_fname : ""};
}

} // namespace

const void *loadedObjectStart(const void *Address) {
#ifdef DLFO_STRUCT_HAS_EH_DBASE // glibc 2.35 and later
  dl_find_object Found{};
  if (_dl_find_object(const_cast<void *>(Address), &Found) == 0)
    return Found.dlfo_map_start;
#endif
  auto Object = byWalk(Address);
  return Object ? Object->Start : nullptr;
}

std::optional<LoadedObject> loadedObject(const void *Address) {
#ifdef DLFO_STRUCT_HAS_EH_DBASE
  dl_find_object Found{};
  // The main program's link map has no name; dladdr gives it argv[0].
  if (_dl_find_object(const_cast<void *>(Address), &Found) == 0 &&
      Found.dlfo_link_map && Found.dlfo_link_map->l_name &&
      *Found.dlfo_link_map->l_name)
    return LoadedObject{Found.dlfo_map_start, Found.dlfo_link_map->l_name};
#endif
  return byWalk(Address);
}

} // namespace orrery::sim
