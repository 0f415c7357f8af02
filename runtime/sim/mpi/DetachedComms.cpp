//===- DetachedComms.cpp - SimGrid 3.32's detached sends, kept indexed ---===//
//
// SimGrid 3.32 keeps every detached communication (SMPI's eager sends, below
// smpi/send-is-detached-thresh) in one std::list of the maestro actor, and
// CommImpl::finish removes each finished one with std::list::remove, a walk
// of the whole list. With thousands of ranks sending at once the walks are
// quadratic in the ranks: 65 % of the wall time of a 16,384-GPU Jacobi
// simulation, 9 % at 1,024 (docs/performance.md). SimGrid 3.34 replaced the
// list by a std::set (upstream commit 5f8fc2c, "Replaced std::list by
// std::set to keep track of activities"); Debian ships 3.32.
//
// This library, which orrery-run preloads into the simulation, keeps the
// maestro's list short without changing what SimGrid does:
// - CommImpl::detach() is SimGrid's, then the node it appended to the
//   maestro's list (holding the communication's reference) is unhooked and
//   kept in a hash table by communication;
// - CommImpl::finish() is SimGrid's (its remove() now walks a short list),
//   then the kept reference is released.
// The maestro's list is found at the first detach() by watching libstdc++'s
// std::list hook (_List_node_base::_M_hook) during that call. Every step is
// checked (SimGrid 3.32 at run time, the node at the list's tail holding the
// communication being detached); where a check fails the communication stays
// in SimGrid's list, which is SimGrid's own behaviour. Before SimGrid walks
// or destroys that list (a host turned off cancels the activities on it; the
// engine's shutdown destroys unfinished ones), every kept communication is
// handed back, in the order they were detached, and the fix stops for the
// rest of the run. It stays off with parallel contexts (contexts/nthreads >
// 1), whose actors may detach concurrently. Nothing here changes a simulated
// time: bench/same-results.sh compares runs with and without it.
//
// ORRERY_SIMGRID_FIXES=0 turns it off (orrery-run then does not preload it);
// =verbose prints what it did when the process exits.
//
//===----------------------------------------------------------------------===//

#include "SimgridFixes.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <unordered_map>
#include <utility>
#include <vector>

using orrery::simgrid_fixes::real;

namespace {

// libstdc++'s std::list layout (the C++11 ABI, stable since GCC 5): a node
// is two links then the value, the list's header two links then the size.
struct NodeBase {
  NodeBase *Next;
  NodeBase *Prev;
};
struct ListHeader : NodeBase {
  std::size_t Size;
};
// The value: boost::intrusive_ptr<ActivityImpl>, a single pointer. CommImpl
// derives from ActivityImpl alone, so the two addresses are the same.
struct ActivityNode : NodeBase {
  void *Activity;
};

using DetachFn = void *(*)(void *);
using FinishFn = void (*)(void *);
using TurnOffFn = void (*)(void *);
using ShutdownFn = void (*)();
using ReleaseFn = void (*)(void *);

using orrery::simgrid_fixes::State;

/// A kept node and when it was detached (to hand nodes back in order).
struct Kept {
  ActivityNode *Node;
  unsigned long long Seq;
};

struct Fixes {
  State S = State::Unknown;
  bool Verbose = false;
  bool WasActive = false;
  DetachFn RealDetach = nullptr;
  FinishFn RealFinish = nullptr;
  TurnOffFn RealTurnOff = nullptr;
  ShutdownFn RealShutdown = nullptr;
  ReleaseFn Release = nullptr;
  ListHeader *MaestroList = nullptr;
  std::unordered_map<void *, Kept> Held;
  unsigned long long Detached = 0, Declined = 0, MaxHeld = 0, GivenBack = 0;
};

Fixes &fixes() { return orrery::simgrid_fixes::lastingState<Fixes>(); }

void printStats() {
  const Fixes &F = fixes();
  std::fprintf(stderr,
               "orrery: SimGrid fix (detached communications): %s; %llu kept "
               "out of the maestro's list, %llu left in it, at most %llu at "
               "once, %llu handed back, %zu unfinished at exit\n",
               F.WasActive ? "active" : "off", F.Detached - F.Declined,
               F.Declined, F.MaxHeld, F.GivenBack, F.Held.size());
}

// Set while SimGrid's detach() runs for the first time: the hook below
// records where the node went. Plain globals, not thread_local: the hook
// runs on every std::list insertion of the process, and a stray capture
// from another thread fails learnList's checks (the fix then stays off).
bool Capturing = false;
NodeBase *CapturedNode = nullptr;
NodeBase *CapturedPosition = nullptr;

/// Decides once whether the fix can work in this process.
void enable(Fixes &F) {
  F.S = State::Off;
  if (!orrery::simgrid_fixes::fixAllowed(printStats))
    return;
  F.Release = reinterpret_cast<ReleaseFn>(
      dlsym(RTLD_DEFAULT, "_ZN7simgrid6kernel8activity21intrusive_ptr_"
                          "releaseEPNS1_12ActivityImplE"));
  // The list's layout is 3.32's; with parallel contexts actors may detach
  // concurrently.
  if (!F.Release || !orrery::simgrid_fixes::actorsOneAtATime())
    return;
  F.Held.reserve(1 << 12);
  F.S = State::Active;
  F.WasActive = true;
}

/// The maestro's list, learnt from where the first detach() put its node.
bool learnList(Fixes &F, void *Comm) {
  auto *Node = static_cast<ActivityNode *>(CapturedNode);
  auto *Header = static_cast<ListHeader *>(CapturedPosition);
  // emplace_back hooks the node before end(), the header; the header's
  // size counts the nodes on its ring.
  if (!Node || !Header || Node->Activity != Comm || Node->Next != Header ||
      Header->Prev != Node)
    return false;
  std::size_t Count = 0;
  for (NodeBase *N = Header->Next; N != Header && Count <= Header->Size;
       N = N->Next)
    ++Count;
  if (Count != Header->Size)
    return false;
  F.MaestroList = Header;
  return true;
}

void appendTo(ListHeader *L, NodeBase *Node) {
  Node->Next = L;
  Node->Prev = L->Prev;
  L->Prev->Next = Node;
  L->Prev = Node;
  ++L->Size;
}

/// Hands every kept communication back to the maestro's list, in the order
/// they were detached (after any SimGrid kept itself), and keeps no more:
/// what SimGrid's list would hold now, for code about to walk or destroy it.
void giveBackAll(Fixes &F) {
  if (F.S != State::Active)
    return;
  F.S = State::Off;
  std::vector<Kept> Nodes;
  Nodes.reserve(F.Held.size());
  for (const auto &KV : F.Held)
    Nodes.push_back(KV.second);
  std::sort(Nodes.begin(), Nodes.end(),
            [](const Kept &A, const Kept &B) { return A.Seq < B.Seq; });
  for (const Kept &K : Nodes)
    appendTo(F.MaestroList, K.Node);
  F.GivenBack += Nodes.size();
  F.Held.clear();
}

} // namespace

// The definitions below replace SimGrid's and libstdc++'s symbols of the
// same names; each calls or reproduces the original.
extern "C" {
void *orreryCommDetach(void *Comm)
    ORRERY_REPLACES("_ZN7simgrid6kernel8activity8CommImpl6detachEv");
void orreryCommFinish(void *Comm)
    ORRERY_REPLACES("_ZN7simgrid6kernel8activity8CommImpl6finishEv");
void orreryHostTurnOff(void *Host)
    ORRERY_REPLACES("_ZN7simgrid3s4u4Host8turn_offEv");
void orreryEngineShutdown()
    ORRERY_REPLACES("_ZN7simgrid6kernel10EngineImpl8shutdownEv");
void orreryListHook(void *Node, void *Position)
    ORRERY_REPLACES("_ZNSt8__detail15_List_node_base7_M_hookEPS0_");
}

void *orreryCommDetach(void *Comm) {
  Fixes &F = fixes();
  DetachFn Detach =
      real(F.RealDetach, "_ZN7simgrid6kernel8activity8CommImpl6detachEv");
  if (F.S == State::Unknown)
    enable(F);
  if (F.S != State::Active)
    return Detach(Comm);

  ++F.Detached;
  bool First = !F.MaestroList;
  if (First) {
    Capturing = true;
    CapturedNode = CapturedPosition = nullptr;
  }
  void *Result;
  try {
    Result = Detach(Comm);
  } catch (...) {
    Capturing = false;
    throw;
  }
  if (First) {
    Capturing = false;
    if (!learnList(F, Comm)) {
      F.S = State::Off;
      F.WasActive = false;
      ++F.Declined;
      return Result;
    }
  }
  ListHeader *L = F.MaestroList;
  auto *Node = static_cast<ActivityNode *>(L->Prev);
  if (Node == static_cast<NodeBase *>(L) || Node->Activity != Comm ||
      L->Size == 0 || F.Held.count(Comm)) {
    ++F.Declined; // not where SimGrid 3.32 puts it, or detached twice
    return Result;
  }
  Node->Prev->Next = Node->Next;
  Node->Next->Prev = Node->Prev;
  --L->Size;
  Node->Next = Node->Prev = nullptr;
  F.Held.emplace(Comm, Kept{Node, F.Detached});
  F.MaxHeld = std::max<unsigned long long>(F.MaxHeld, F.Held.size());
  return Result;
}

void orreryCommFinish(void *Comm) {
  Fixes &F = fixes();
  FinishFn Finish =
      real(F.RealFinish, "_ZN7simgrid6kernel8activity8CommImpl6finishEv");
  // SimGrid's remove() drops the list's reference inside finish(); the
  // caller holds another while finish() runs, so dropping ours after it, or
  // when it throws, is as safe.
  auto Release = [&F, Comm] {
    if (F.Held.empty())
      return;
    auto It = F.Held.find(Comm);
    if (It == F.Held.end())
      return;
    ActivityNode *Node = It->second.Node;
    F.Held.erase(It);
    F.Release(Node->Activity);
    ::operator delete(Node, sizeof(ActivityNode));
  };
  try {
    Finish(Comm);
  } catch (...) {
    Release();
    throw;
  }
  Release();
}

// HostImpl::turn_off cancels every activity of the maestro's list that runs
// on the host (host-to-host flows): the list must be complete first.
void orreryHostTurnOff(void *Host) {
  Fixes &F = fixes();
  TurnOffFn TurnOff = real(F.RealTurnOff, "_ZN7simgrid3s4u4Host8turn_offEv");
  giveBackAll(F);
  TurnOff(Host);
}

// The engine's shutdown destroys the maestro, whose list releases the
// detached communications still unfinished (their destructors run).
void orreryEngineShutdown() {
  Fixes &F = fixes();
  ShutdownFn Shutdown =
      real(F.RealShutdown, "_ZN7simgrid6kernel10EngineImpl8shutdownEv");
  giveBackAll(F);
  orrery::simgrid_fixes::hostIndexOff();
  Shutdown();
}

// libstdc++'s _List_node_base::_M_hook (src/c++98/list.cc): links this
// node before Position. Reproduced, not forwarded: the process calls it on
// every std::list insertion.
void orreryListHook(void *This, void *At) {
  auto *Node = static_cast<NodeBase *>(This);
  auto *Position = static_cast<NodeBase *>(At);
  if (Capturing) {
    CapturedNode = Node;
    CapturedPosition = Position;
  }
  Node->Next = Position;
  Node->Prev = Position->Prev;
  Position->Prev->Next = Node;
  Position->Prev = Node;
}
