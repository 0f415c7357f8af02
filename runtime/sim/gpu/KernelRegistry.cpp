//===- KernelRegistry.cpp - Kernels known by their stub's address ---------===//

#include "KernelRegistry.h"
#include "LibraryKernels.h"
#include "ranks/LoadedObjects.h"

#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace orrery::sim {
namespace {

struct Registry {
  std::mutex Lock;
  /// (loaded object, stub symbol) -> entry: SMPI loads the program once per
  /// rank, and each copy registers its own table; an entry of the stub's own
  /// copy stays loaded as long as the stub does.
  std::map<std::pair<const void *, std::string>, const orrery_kernel_entry *>
      ByObjectSymbol;
  /// Stub symbol -> the first entry registered, for a stub whose own copy
  /// registered none (its kernel instantiated only in another object).
  std::unordered_map<std::string, const orrery_kernel_entry *> BySymbol;
  /// Stub address -> entry: the stubs generated code names, and every stub
  /// resolved so far.
  std::unordered_map<const void *, const orrery_kernel_entry *> ByAddress;
  /// Stubs looked up and not found (until the next registration).
  std::unordered_set<const void *> Missed;
};

Registry &registry() {
  static Registry *R = new Registry; // never destroyed: used at exit
  return *R;
}

} // namespace

const orrery_kernel_entry *registeredKernel(const void *Func) {
  if (!Func)
    return nullptr;
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  if (auto It = R.ByAddress.find(Func); It != R.ByAddress.end())
    return It->second;
  if (R.Missed.count(Func) || R.BySymbol.empty())
    return nullptr;
  std::string Symbol = stubMangledSymbol(Func);
  const orrery_kernel_entry *Found = nullptr;
  if (auto It = R.ByObjectSymbol.find({loadedObjectStart(Func), Symbol});
      It != R.ByObjectSymbol.end())
    Found = It->second;
  else if (auto Any = R.BySymbol.find(Symbol); Any != R.BySymbol.end())
    Found = Any->second;
  if (Found)
    R.ByAddress.emplace(Func, Found);
  else
    R.Missed.insert(Func);
  return Found;
}

std::optional<orrery_kernel_counts>
kernelResources(const void *Func, unsigned BlockThreads,
                unsigned long long DynamicShared) {
  const orrery_kernel_entry *E = registeredKernel(Func);
  if (!E)
    return std::nullopt;
  return E->counts(orrery_dim3{1, 1, 1}, orrery_dim3{BlockThreads, 1, 1},
                   DynamicShared, nullptr);
}

} // namespace orrery::sim

extern "C" void orrery_register_kernels(const orrery_kernel_entry *Entries,
                                        unsigned Count) {
  using namespace orrery::sim;
  Registry &R = registry();
  // The table lies in the object (the rank's copy) that defines its entries.
  const void *Object = Count ? loadedObjectStart(Entries) : nullptr;
  std::lock_guard<std::mutex> G(R.Lock);
  for (unsigned I = 0; I < Count; ++I) {
    const orrery_kernel_entry &E = Entries[I];
    if (!E.counts)
      continue;
    if (E.stub) {
      R.ByObjectSymbol.emplace(std::make_pair(Object, std::string(E.stub)), &E);
      R.BySymbol.emplace(E.stub, &E);
    }
    // A stub the generated code could name: known exactly, even in a
    // stripped program or where two files have static kernels of one name.
    if (E.address)
      R.ByAddress[E.address] = &E;
  }
  // A stub that missed before may be found now.
  R.Missed.clear();
}
