//===- KernelRegistry.cpp - Kernels known by their stub's address ---------===//

#include "KernelRegistry.h"
#include "LibraryKernels.h"

#include <dlfcn.h>

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace orrery::sim {
namespace {

struct Registry {
  std::mutex Lock;
  /// Stub symbol -> its entries: one per translation unit that defines the
  /// kernel, and per loaded copy of the program (SMPI loads one per rank).
  std::unordered_map<std::string, std::vector<const orrery_kernel_entry *>>
      BySymbol;
  std::unordered_map<const void *, const orrery_kernel_entry *> ByAddress;
};

Registry &registry() {
  static Registry *R = new Registry; // never destroyed: used at exit
  return *R;
}

const void *objectOf(const void *Address) {
  Dl_info Info;
  return dladdr(Address, &Info) ? Info.dli_fbase : nullptr;
}

} // namespace

const orrery_kernel_entry *registeredKernel(const void *Func) {
  if (!Func)
    return nullptr;
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  auto Cached = R.ByAddress.find(Func);
  if (Cached != R.ByAddress.end())
    return Cached->second;
  const orrery_kernel_entry *Found = nullptr;
  if (!R.BySymbol.empty()) {
    auto It = R.BySymbol.find(stubMangledSymbol(Func));
    if (It != R.BySymbol.end()) {
      // The entry of the same loaded copy, so that its function stays
      // loaded as long as the stub does.
      const void *Object = objectOf(Func);
      Found = It->second.front();
      for (const orrery_kernel_entry *E : It->second)
        if (objectOf(reinterpret_cast<const void *>(E->counts)) == Object) {
          Found = E;
          break;
        }
    }
  }
  R.ByAddress.emplace(Func, Found);
  return Found;
}

unsigned registeredKernelCount() {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  return static_cast<unsigned>(R.BySymbol.size());
}

} // namespace orrery::sim

extern "C" void orrery_register_kernels(const orrery_kernel_entry *Entries,
                                        unsigned Count) {
  using namespace orrery::sim;
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  for (unsigned I = 0; I < Count; ++I) {
    if (!Entries[I].counts)
      continue;
    if (Entries[I].stub)
      R.BySymbol[Entries[I].stub].push_back(&Entries[I]);
    // A stub the generated code could name: known exactly, even in a
    // stripped program or where two files have static kernels of one name.
    if (Entries[I].address)
      R.ByAddress[Entries[I].address] = &Entries[I];
  }
  // A later registration may resolve a stub that missed before.
  for (auto It = R.ByAddress.begin(); It != R.ByAddress.end();)
    It = It->second ? std::next(It) : R.ByAddress.erase(It);
}
