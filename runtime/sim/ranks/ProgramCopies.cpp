//===- ProgramCopies.cpp - Rank program copies out of the loader's list ---===//
//
// SMPI's dlopen privatization gives every rank its own copy of the program: a
// file <tmpdir>/<program>_<pid>_<rank>.so, dlopen'ed RTLD_LOCAL into the
// process's one namespace. glibc's dlopen walks that namespace's list of loaded
// objects several times per call (the name and file-identity checks in
// _dl_map_object and _dl_map_object_from_fd, the walk to the tail in
// _dl_add_to_namespace_list, activate_nodelete), so loading N copies walks
// N^2/2 link maps four times: 440-460 s of a 65,536-rank start-up, nearly all
// of it in the loader (docs/performance.md, "16,384 and 65,536 GPUs").
//
// This part of liborrery-simgrid-fixes (preloaded by orrery-run) keeps each
// program copy out of that list once loaded: its dlopen is glibc's, then the
// copy's link map is unlinked from its neighbours (the map keeps its own links,
// so a walker standing on it still reaches the list's tail) and kept here.
// Nothing that runs a copy's code uses the list: its symbols resolve through
// its own search scopes, C++ exceptions find it through glibc's object table
// (_dl_find_object), which dlopen updated. What does use the list gets every
// kept copy back first: dlclose, dlmopen, dladdr, dladdr1, dl_iterate_phdr, any
// other dlopen (a failed one may run glibc's dlclose internally, which counts
// the list against the number of objects loaded), and the process's exit
// (glibc's own exit walk, _dl_fini, runs after the handler registered when the
// first copy was kept). They go back at the tail, in the order loaded, as glibc
// had them. Copies loaded after that are kept again.
//
// SMPI's MPI_Init ends with a barrier of all the ranks of the program
// (s4u::Barrier::wait, replaced here too): once a rank leaves it every copy is
// loaded, and the list is made whole for the rest of the run. Code loaded with
// the copies (liborrery-sim, the program's libraries) binds the names above to
// glibc's own (SMPI loads copies RTLD_DEEPBIND, so their dependencies come
// before this library): liborrery-sim asks for the list back itself before its
// dladdr (orrery_program_copies_restore()). Before MPI_Init, and in programs
// that never call it, what cannot be intercepted sees the copies missing: the
// program's own dladdr and dl_iterate_phdr, glibc's internal callers of those
// walks (dlsym(RTLD_NEXT) from a copy's own code fails with "RTLD_NEXT used in
// code not dynamically loaded"; backtrace_symbols names no function of a copy),
// and debuggers reading the list through r_debug. ORRERY_SIMGRID_FIXES=0 turns
// it off with the other fixes; =verbose prints what it did at exit. Only a
// single-threaded SimGrid (contexts/nthreads 1) and SimGrid 3.32's copy names
// are handled; anything else is left to glibc as it is.
//
//===----------------------------------------------------------------------===//

#include "mpi/SimgridFixes.h"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

using orrery::simgrid_fixes::real;
using orrery::simgrid_fixes::State;

namespace {

using DlopenFn = void *(*)(const char *, int);
using DlmopenFn = void *(*)(Lmid_t, const char *, int);
using DlcloseFn = int (*)(void *);
using DladdrFn = int (*)(const void *, Dl_info *);
using Dladdr1Fn = int (*)(const void *, Dl_info *, void **, int);
using IterateFn = int (*)(int (*)(dl_phdr_info *, size_t, void *), void *);
using BarrierWaitFn = int (*)(void *);

struct Copies {
  State S = State::Unknown;
  bool ExitHandler = false;
  std::vector<link_map *> Kept;
  unsigned long long Loaded = 0, Restores = 0;
  DlopenFn RealDlopen = nullptr;
  DlmopenFn RealDlmopen = nullptr;
  DlcloseFn RealDlclose = nullptr;
  DladdrFn RealDladdr = nullptr;
  Dladdr1Fn RealDladdr1 = nullptr;
  IterateFn RealIterate = nullptr;
  BarrierWaitFn RealBarrierWait = nullptr;
};

Copies &copies() { return orrery::simgrid_fixes::lastingState<Copies>(); }

void printStats() {
  const Copies &C = copies();
  std::fprintf(stderr,
               "orrery: loader fix (program copies): %s; %llu copies kept "
               "out of the loader's list while loading, %llu returns of the "
               "list\n",
               C.Loaded ? "active" : "off", C.Loaded, C.Restores);
}

/// Whether \p Name is SMPI 3.32's name for a rank's copy of the program:
/// it ends in _<this process's pid>_<rank>.so.
bool isProgramCopy(const char *Name) {
  if (!Name)
    return false;
  std::string_view N(Name), So(".so");
  if (N.size() <= So.size() || N.substr(N.size() - So.size()) != So)
    return false;
  N.remove_suffix(So.size());
  std::size_t Last = N.find_last_not_of("0123456789");
  if (Last == std::string_view::npos || Last + 1 == N.size())
    return false; // no rank
  N = N.substr(0, Last + 1);
  std::string Pid = "_" + std::to_string(getpid()) + "_";
  return N.size() > Pid.size() && N.substr(N.size() - Pid.size()) == Pid;
}

/// Decides once whether copies may be kept: the other fixes' rule, and one
/// thread running SimGrid's actors.
bool active(Copies &C) {
  if (C.S == State::Unknown)
    C.S = orrery::simgrid_fixes::fixAllowed(printStats) &&
                  orrery::simgrid_fixes::actorsOneAtATime()
              ? State::Active
              : State::Off;
  return C.S == State::Active;
}

void restoreAll();

/// Unlinks the newly loaded copy \p Map from the list, if it is where a new
/// object is: linked both ways, after the main program.
void keep(Copies &C, link_map *Map) {
  if (!Map->l_prev || Map->l_prev->l_next != Map ||
      (Map->l_next && Map->l_next->l_prev != Map))
    return;
  if (!C.ExitHandler) {
    C.ExitHandler = true;
    std::atexit(restoreAll);
  }
  Map->l_prev->l_next = Map->l_next;
  if (Map->l_next)
    Map->l_next->l_prev = Map->l_prev;
  C.Kept.push_back(Map);
  ++C.Loaded;
}

/// Puts every kept copy back, in the order loaded, at the list's tail,
/// where glibc put it (the list holds no other copy then, so the walk to the
/// tail is short).
void restoreAll() {
  Copies &C = copies();
  if (C.Kept.empty())
    return;
  link_map *Tail = _r_debug.r_map;
  while (Tail->l_next)
    Tail = Tail->l_next;
  for (link_map *Map : C.Kept) {
    Tail->l_next = Map;
    Map->l_prev = Tail;
    Tail = Map;
  }
  Tail->l_next = nullptr;
  C.Kept.clear();
  ++C.Restores;
}

/// glibc's function \p Name (kept in \p Slot) called with every copy back
/// in the list.
template <typename Fn, typename... Args>
auto withWholeList(Fn &Slot, const char *Name, Args... As) {
  restoreAll();
  return real(Slot, Name)(As...);
}

} // namespace

// The loader's entry points, replaced in the process (the library is
// preloaded); each forwards to glibc's.
extern "C" {

/// Every kept copy back in the list (liborrery-sim's weak reference,
/// ranks/LoadedObjects.cpp).
__attribute__((visibility("default"))) void orrery_program_copies_restore() {
  restoreAll();
}

__attribute__((visibility("default"))) void *dlopen(const char *Name,
                                                    int Flags) {
  Copies &C = copies();
  DlopenFn Real = real(C.RealDlopen, "dlopen");
  bool Copy = isProgramCopy(Name) && !(Flags & RTLD_GLOBAL);
  if (!Copy)
    restoreAll();
  void *Handle = Real(Name, Flags);
  if (Handle && Copy && active(C))
    keep(C, static_cast<link_map *>(Handle));
  return Handle;
}

__attribute__((visibility("default"))) void *
dlmopen(Lmid_t Namespace, const char *Name, int Flags) {
  return withWholeList(copies().RealDlmopen, "dlmopen", Namespace, Name, Flags);
}

__attribute__((visibility("default"))) int dlclose(void *Handle) {
  return withWholeList(copies().RealDlclose, "dlclose", Handle);
}

__attribute__((visibility("default"))) int dladdr(const void *Address,
                                                  Dl_info *Info) {
  return withWholeList(copies().RealDladdr, "dladdr", Address, Info);
}

__attribute__((visibility("default"))) int
dladdr1(const void *Address, Dl_info *Info, void **Extra, int Flags) {
  return withWholeList(copies().RealDladdr1, "dladdr1", Address, Info, Extra,
                       Flags);
}

__attribute__((visibility("default"))) int
dl_iterate_phdr(int (*Callback)(dl_phdr_info *, size_t, void *), void *Data) {
  return withWholeList(copies().RealIterate, "dl_iterate_phdr", Callback, Data);
}

} // extern "C"

#define BARRIER_WAIT_SYMBOL "_ZN7simgrid3s4u7Barrier4waitEv"
extern "C" int orreryBarrierWait(void *Barrier)
    ORRERY_REPLACES(BARRIER_WAIT_SYMBOL);

/// simgrid::s4u::Barrier::wait(): SimGrid's, then the list whole again.
int orreryBarrierWait(void *Barrier) {
  Copies &C = copies();
  int Result = real(C.RealBarrierWait, BARRIER_WAIT_SYMBOL)(Barrier);
  restoreAll();
  return Result;
}
