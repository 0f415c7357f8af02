//===- HostIndex.cpp - SimGrid 3.32's hosts by name, indexed --------------===//
//
// SimGrid 3.32 finds a host by name (s4u::Engine::host_by_name_or_null) by
// walking every network zone of the platform, and checks that each host it
// creates has a new name the same way; and each zone, when the platform is
// sealed, lists its own hosts (NetZoneImpl::get_all_hosts) by filtering all
// the platform's. Orrery's platforms have a zone per node, so loading one
// walked zones x hosts twice: 16,384 nodes (65,536 GPUs) took minutes before
// the first rank started.
//
// This part of liborrery-simgrid-fixes keeps its own index of the hosts
// SimGrid creates (NetZoneImpl::create_host, by name; Host::destroy forgets
// one) and answers lookups from it:
// - a name it holds: that host;
// - the name of the host being created, during its creation (SimGrid's
//   duplicate check), when every host so far was indexed: none;
// - any other name: SimGrid's own walk, and if that finds a host the index
//   lacks (created some other way), the index stops answering for the rest
//   of the run;
// - a zone's hosts: those created in it, in SimGrid's order (by name).
// It stops at the engine's shutdown too (DetachedComms.cpp). Nothing changes
// what SimGrid answers for a platform whose hosts have distinct names.
// ORRERY_SIMGRID_FIXES=0: not preloaded; =verbose prints what it did.
//
//===----------------------------------------------------------------------===//

#include "SimgridFixes.h"

#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

using orrery::simgrid_fixes::real;

namespace {

using CreateHostFn = void *(*)(void *, const std::string &,
                               const std::vector<double> &);
using LookupFn = void *(*)(const void *, const std::string &);
using DestroyFn = void (*)(void *);
using HostNameFn = const char *(*)(const void *);
// NetZoneImpl::get_all_hosts() const returns std::vector<s4u::Host *>: a
// member function returning a class by value takes the result's address
// first, then the object, as a free function of the object would.
using ZoneHostsFn = std::vector<void *> (*)(const void *);

// The functions replaced: macros, since ORRERY_REPLACES needs a string
// literal and original() the same name.
#define CREATE_HOST_SYMBOL                                                     \
  "_ZN7simgrid6kernel7routing11NetZoneImpl11create_hostERKNSt7__cxx1112basic_" \
  "stringIcSt11char_traitsIcESaIcEEERKSt6vectorIdSaIdEE"
#define HOST_BY_NAME_SYMBOL                                                    \
  "_ZNK7simgrid3s4u6Engine20host_by_name_or_nullERKNSt7__cxx1112basic_"        \
  "stringIcSt11char_traitsIcESaIcEEE"
#define DESTROY_SYMBOL "_ZN7simgrid3s4u4Host7destroyEv"
#define ZONE_HOSTS_SYMBOL                                                      \
  "_ZNK7simgrid6kernel7routing11NetZoneImpl13get_all_hostsEv"

struct Index {
  bool Decided = false, On = false, WasOn = false;
  CreateHostFn RealCreate = nullptr;
  LookupFn RealLookup = nullptr;
  DestroyFn RealDestroy = nullptr;
  ZoneHostsFn RealZoneHosts = nullptr;
  HostNameFn HostName = nullptr;
  struct Entry {
    void *Host;
    const void *Zone;
  };
  std::unordered_map<std::string, Entry> ByName;
  /// Each zone's hosts by name (SimGrid's zones keep theirs in a std::map).
  std::unordered_map<const void *, std::map<std::string, void *>> ByZone;
  const std::string *Creating = nullptr;
  unsigned long long Answered = 0, Walked = 0;
};

Index &hostIndex() { return orrery::simgrid_fixes::lastingState<Index>(); }

void printStats() {
  const Index &I = hostIndex();
  std::fprintf(stderr,
               "orrery: SimGrid fix (hosts by name): %s; %zu hosts indexed, "
               "%llu lookups answered, %llu left to SimGrid\n",
               I.WasOn ? "active" : "off", I.ByName.size(), I.Answered,
               I.Walked);
}

/// SimGrid's function in \p Slot, the index decided on first use.
template <typename Fn> Fn original(Index &I, Fn &Slot, const char *Symbol) {
  Fn F = real(Slot, Symbol);
  if (!I.Decided) {
    I.Decided = true;
    I.HostName =
        reinterpret_cast<HostNameFn>(dlsym(RTLD_DEFAULT, "sg_host_get_name"));
    I.On = I.WasOn =
        orrery::simgrid_fixes::fixAllowed(printStats) && I.HostName;
  }
  return F;
}

} // namespace

namespace orrery::simgrid_fixes {
void hostIndexOff() { hostIndex().On = false; }
} // namespace orrery::simgrid_fixes

extern "C" {
void *orreryCreateHost(void *Zone, const std::string &Name,
                       const std::vector<double> &Speeds)
    ORRERY_REPLACES(CREATE_HOST_SYMBOL);
void *orreryHostByName(const void *Engine, const std::string &Name)
    ORRERY_REPLACES(HOST_BY_NAME_SYMBOL);
void orreryHostDestroy(void *Host) ORRERY_REPLACES(DESTROY_SYMBOL);
std::vector<void *> orreryZoneHosts(const void *Zone)
    ORRERY_REPLACES(ZONE_HOSTS_SYMBOL);
}

void *orreryCreateHost(void *Zone, const std::string &Name,
                       const std::vector<double> &Speeds) {
  Index &I = hostIndex();
  CreateHostFn Create = original(I, I.RealCreate, CREATE_HOST_SYMBOL);
  if (!I.On)
    return Create(Zone, Name, Speeds);
  I.Creating = &Name;
  void *Host;
  try {
    Host = Create(Zone, Name, Speeds);
  } catch (...) {
    I.Creating = nullptr;
    throw;
  }
  I.Creating = nullptr;
  if (Host) {
    if (auto Old = I.ByName.find(Name); Old != I.ByName.end())
      I.ByZone[Old->second.Zone].erase(Name);
    I.ByName[Name] = {Host, Zone};
    I.ByZone[Zone][Name] = Host;
  }
  return Host;
}

void *orreryHostByName(const void *Engine, const std::string &Name) {
  Index &I = hostIndex();
  LookupFn Lookup = original(I, I.RealLookup, HOST_BY_NAME_SYMBOL);
  if (!I.On)
    return Lookup(Engine, Name);
  if (auto It = I.ByName.find(Name); It != I.ByName.end()) {
    ++I.Answered;
    return It->second.Host;
  }
  if (I.Creating && *I.Creating == Name) {
    ++I.Answered;
    return nullptr; // a new name: every host so far is indexed
  }
  ++I.Walked;
  void *Host = Lookup(Engine, Name);
  if (Host)
    I.On = false; // a host the index never saw: SimGrid answers from now on
  return Host;
}

void orreryHostDestroy(void *Host) {
  Index &I = hostIndex();
  DestroyFn Destroy = original(I, I.RealDestroy, DESTROY_SYMBOL);
  if (I.On && Host) {
    std::string Name = I.HostName(Host);
    if (auto It = I.ByName.find(Name); It != I.ByName.end()) {
      I.ByZone[It->second.Zone].erase(Name);
      I.ByName.erase(It);
    }
  }
  Destroy(Host);
}

std::vector<void *> orreryZoneHosts(const void *Zone) {
  Index &I = hostIndex();
  ZoneHostsFn ZoneHosts = original(I, I.RealZoneHosts, ZONE_HOSTS_SYMBOL);
  if (!I.On)
    return ZoneHosts(Zone);
  ++I.Answered;
  std::vector<void *> Hosts;
  if (auto It = I.ByZone.find(Zone); It != I.ByZone.end()) {
    Hosts.reserve(It->second.size());
    for (const auto &KV : It->second)
      Hosts.push_back(KV.second);
  }
  return Hosts;
}
