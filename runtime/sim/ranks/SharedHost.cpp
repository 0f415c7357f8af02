//===- SharedHost.cpp - Large host allocations shared by all ranks --------===//

#include "SharedHost.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>

namespace orrery::sim::shared_host {

namespace {

/// Size of the shared file. An allocation maps it as often as it needs;
/// larger means fewer mappings per allocation (vm.max_map_count), smaller
/// bounds the RAM that touching every shared page can take.
constexpr std::size_t BlockBytes = std::size_t(256) << 20;
constexpr std::size_t DefaultThreshold = std::size_t(16) << 20;

struct State {
  std::mutex Lock;
  int Fd = -1;
  bool FdFailed = false;
  std::map<std::uintptr_t, std::size_t> Live; ///< base -> size
  /// Bounds of every shared allocation made so far: free() of other memory
  /// returns without taking the lock.
  std::atomic<std::uintptr_t> Low{UINTPTR_MAX}, High{0};
  Stats S;
  unsigned long long LiveBytes = 0;
};

State &state() {
  // Never destroyed: free() may run after static destructors.
  static State *St = new State;
  return *St;
}

std::size_t pageRound(std::size_t N) {
  std::size_t Page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return (N + Page - 1) / Page * Page;
}

int sharedFile(State &St) {
  if (St.Fd >= 0 || St.FdFailed)
    return St.Fd;
  int Fd = memfd_create("orrery-shared-host", MFD_CLOEXEC);
  if (Fd >= 0 && ftruncate(Fd, static_cast<off_t>(BlockBytes)) != 0) {
    close(Fd);
    Fd = -1;
  }
  St.Fd = Fd;
  St.FdFailed = Fd < 0;
  return Fd;
}

} // namespace

std::size_t threshold() {
  static const std::size_t T = [] {
    const char *V = std::getenv("ORRERY_SHARED_HOST_THRESHOLD");
    if (!V || !*V)
      return DefaultThreshold;
    char *End = nullptr;
    unsigned long long N = std::strtoull(V, &End, 10);
    return End && *End == '\0' ? static_cast<std::size_t>(N) : DefaultThreshold;
  }();
  return T;
}

void *allocate(std::size_t Size) {
  std::size_t T = threshold();
  if (T == 0 || Size < T)
    return nullptr;
  State &St = state();
  std::lock_guard<std::mutex> G(St.Lock);
  int Fd = sharedFile(St);
  if (Fd < 0)
    return nullptr;
  std::size_t Bytes = pageRound(Size);
  // Reserve the range, then cover it with views of the shared file.
  void *Base = mmap(nullptr, Bytes, PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Base == MAP_FAILED)
    return nullptr;
  auto *P = static_cast<char *>(Base);
  for (std::size_t Off = 0; Off < Bytes; Off += BlockBytes) {
    std::size_t Len = std::min(BlockBytes, Bytes - Off);
    if (mmap(P + Off, Len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, Fd,
             0) == MAP_FAILED) {
      munmap(Base, Bytes);
      return nullptr;
    }
  }
  auto Addr = reinterpret_cast<std::uintptr_t>(Base);
  St.Live[Addr] = Bytes;
  St.Low = std::min(St.Low.load(), Addr);
  St.High = std::max(St.High.load(), Addr + Bytes);
  ++St.S.Allocations;
  St.S.Bytes += Size;
  St.LiveBytes += Bytes;
  St.S.PeakLive = std::max(St.S.PeakLive, St.LiveBytes);
  return Base;
}

/// False when \p Addr is outside every shared allocation ever made: the
/// common case (free() of heap memory), answered without the lock.
static bool mayBeShared(const State &St, std::uintptr_t Addr) {
  return Addr >= St.Low.load(std::memory_order_relaxed) &&
         Addr < St.High.load(std::memory_order_relaxed);
}

bool release(void *P) {
  State &St = state();
  auto Addr = reinterpret_cast<std::uintptr_t>(P);
  if (!mayBeShared(St, Addr))
    return false;
  std::lock_guard<std::mutex> G(St.Lock);
  auto It = St.Live.find(Addr);
  if (It == St.Live.end())
    return false;
  munmap(P, It->second);
  St.LiveBytes -= It->second;
  St.Live.erase(It);
  return true;
}

std::size_t sizeOf(const void *P) {
  State &St = state();
  std::lock_guard<std::mutex> G(St.Lock);
  auto It = St.Live.find(reinterpret_cast<std::uintptr_t>(P));
  return It == St.Live.end() ? 0 : It->second;
}

bool contains(const void *P) {
  State &St = state();
  auto Addr = reinterpret_cast<std::uintptr_t>(P);
  if (!mayBeShared(St, Addr))
    return false;
  std::lock_guard<std::mutex> G(St.Lock);
  auto It = St.Live.upper_bound(Addr);
  if (It == St.Live.begin())
    return false;
  --It;
  return Addr - It->first < It->second;
}

Stats stats() {
  State &St = state();
  std::lock_guard<std::mutex> G(St.Lock);
  return St.S;
}

} // namespace orrery::sim::shared_host
