//===- SimgridFixes.h - Shared parts of liborrery-simgrid-fixes -*- C++ -*-===//
//
// liborrery-simgrid-fixes, which orrery-run preloads into every simulation,
// replaces a few SimGrid 3.32 functions whose cost grows with the square of
// the platform or of the ranks (DetachedComms.cpp, GroupMaps.cpp,
// HostIndex.cpp, ../ranks/ProgramCopies.cpp) or that do work nothing reads
// (BenchTimers.cpp). Each replacement calls or reproduces the original, or
// skips what no setting in force uses; none changes a result.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_SIMGRIDFIXES_H
#define ORRERY_SIM_SIMGRIDFIXES_H

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace orrery::simgrid_fixes {

/// SimGrid's own function \p Name; without it the call cannot be made (the
/// library was preloaded into a process whose SimGrid lacks it).
template <typename Fn> Fn real(Fn &Slot, const char *Name) {
  if (!Slot)
    Slot = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, Name));
  if (!Slot) {
    std::fprintf(stderr,
                 "orrery: liborrery-simgrid-fixes.so is preloaded, but this "
                 "process's SimGrid has no %s; run with "
                 "ORRERY_SIMGRID_FIXES=0 or without LD_PRELOAD\n",
                 Name);
    std::abort();
  }
  return Slot;
}

/// A fix's state, created at first use and never destroyed: SimGrid and the
/// loader may call a fix while the process's static objects are dying.
template <typename State> State &lastingState() {
  static State *S = new State;
  return *S;
}

/// Whether a fix is yet to be decided, runs, or stays off for the run.
enum class State { Unknown, Active, Off };

/// Whether SimGrid runs its actors one at a time (contexts/nthreads 1):
/// fixes that edit SimGrid's or the loader's lists unlocked need it.
inline bool actorsOneAtATime() {
  auto ConfigInt = reinterpret_cast<int (*)(const char *)>(
      dlsym(RTLD_DEFAULT, "sg_cfg_get_int"));
  return ConfigInt && ConfigInt("contexts/nthreads") <= 1;
}

/// What ORRERY_SIMGRID_FIXES asks of a fix, decided once per fix: whether
/// it may run at all ("0": no; the library is then not preloaded either) and
/// whether to print what it did at exit ("verbose": \p Stats is registered
/// with atexit). A fix runs only under SimGrid 3.32, whose internals it
/// relies on (later releases fixed what it fixes).
inline bool fixAllowed(void (*Stats)()) {
  const char *Env = std::getenv("ORRERY_SIMGRID_FIXES");
  if (Env && std::strcmp(Env, "verbose") == 0)
    std::atexit(Stats);
  if (Env && std::strcmp(Env, "0") == 0)
    return false;
  auto Version = reinterpret_cast<void (*)(int *, int *, int *)>(
      dlsym(RTLD_DEFAULT, "sg_version_get"));
  int Major = 0, Minor = 0, Patch = 0;
  if (Version)
    Version(&Major, &Minor, &Patch);
  return Major == 3 && Minor == 32;
}

/// The engine shuts down: the host index stops answering (HostIndex.cpp).
void hostIndexOff();

} // namespace orrery::simgrid_fixes

// The definitions replace SimGrid's symbols of the same names in the process
// (the library is preloaded).
#define ORRERY_REPLACES(Symbol)                                                \
  __asm__(Symbol) __attribute__((visibility("default")))

#endif // ORRERY_SIM_SIMGRIDFIXES_H
