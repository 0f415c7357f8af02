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
// in SimGrid's list, which is SimGrid's own behaviour. Nothing here changes a
// simulated time: bench/same-results.sh compares runs with and without it.
//
// ORRERY_SIMGRID_FIXES=0 turns it off (orrery-run then does not preload it);
// =verbose prints what it did when the process exits.
//
//===----------------------------------------------------------------------===//

#include <dlfcn.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <unordered_map>

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

using MemberFn = void *(*)(void *);
using ReleaseFn = void (*)(void *);

enum class State { Unknown, Active, Off };

struct Fixes {
  State S = State::Unknown;
  bool Verbose = false;
  MemberFn RealDetach = nullptr;
  MemberFn RealFinish = nullptr;
  ReleaseFn Release = nullptr;
  ListHeader *MaestroList = nullptr;
  std::unordered_map<void *, ActivityNode *> Held;
  unsigned long long Kept = 0, Declined = 0, MaxHeld = 0;
};

// Never destroyed: SimGrid may finish communications while the process's
// static objects are being destroyed. Unfinished detached sends keep their
// reference, as they would in SimGrid's list until its engine is gone.
Fixes &fixes() {
  static Fixes *F = new Fixes;
  return *F;
}

void printStats() {
  const Fixes &F = fixes();
  std::fprintf(stderr,
               "orrery: SimGrid fix (detached communications): %s; %llu kept "
               "out of the maestro's list, %llu left in it, at most %llu at "
               "once, %zu unfinished at exit\n",
               F.S == State::Active ? "active" : "off", F.Kept, F.Declined,
               F.MaxHeld, F.Held.size());
}

// Set while SimGrid's detach() runs for the first time: the hook below
// records where the node went.
thread_local bool Capturing = false;
thread_local NodeBase *CapturedNode = nullptr;
thread_local NodeBase *CapturedPosition = nullptr;

/// SimGrid's own functions; without them nothing can run (the library was
/// preloaded into a process whose SimGrid does not have them).
void resolve(Fixes &F) {
  if (F.RealDetach && F.RealFinish)
    return;
  F.RealDetach = reinterpret_cast<MemberFn>(
      dlsym(RTLD_NEXT, "_ZN7simgrid6kernel8activity8CommImpl6detachEv"));
  F.RealFinish = reinterpret_cast<MemberFn>(
      dlsym(RTLD_NEXT, "_ZN7simgrid6kernel8activity8CommImpl6finishEv"));
  if (!F.RealDetach || !F.RealFinish) {
    std::fprintf(stderr,
                 "orrery: liborrery-simgrid-fixes.so is preloaded, but this "
                 "process's SimGrid has no CommImpl::detach()/finish(); run "
                 "with ORRERY_SIMGRID_FIXES=0 or without LD_PRELOAD\n");
    std::abort();
  }
}

/// Decides once whether the fix can work in this process.
void enable(Fixes &F) {
  F.S = State::Off;
  const char *Env = std::getenv("ORRERY_SIMGRID_FIXES");
  F.Verbose = Env && std::strcmp(Env, "verbose") == 0;
  if (F.Verbose)
    std::atexit(printStats);
  if (Env && std::strcmp(Env, "0") == 0)
    return;
  F.Release = reinterpret_cast<ReleaseFn>(
      dlsym(RTLD_DEFAULT, "_ZN7simgrid6kernel8activity21intrusive_ptr_"
                          "releaseEPNS1_12ActivityImplE"));
  auto Version = reinterpret_cast<void (*)(int *, int *, int *)>(
      dlsym(RTLD_DEFAULT, "sg_version_get"));
  int Major = 0, Minor = 0, Patch = 0;
  if (Version)
    Version(&Major, &Minor, &Patch);
  // The layout this file relies on is 3.32's; 3.34 indexes the list itself.
  if (!F.Release || Major != 3 || Minor != 32)
    return;
  F.Held.reserve(1 << 12);
  F.S = State::Active;
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

} // namespace

// The definitions below replace SimGrid's and libstdc++'s symbols of the
// same names in the process (the library is preloaded); each calls or
// reproduces the original.
extern "C" {
__attribute__((visibility("default"))) void *
orreryCommDetach(void *Comm) __asm__(
    "_ZN7simgrid6kernel8activity8CommImpl6detachEv");
__attribute__((visibility("default"))) void orreryCommFinish(void *Comm) __asm__(
    "_ZN7simgrid6kernel8activity8CommImpl6finishEv");
__attribute__((visibility("default"))) void
orreryListHook(void *Node, void *Position) __asm__(
    "_ZNSt8__detail15_List_node_base7_M_hookEPS0_");
}

void *orreryCommDetach(void *Comm) {
  Fixes &F = fixes();
  resolve(F);
  if (F.S == State::Unknown)
    enable(F);
  if (F.S != State::Active)
    return F.RealDetach(Comm);

  bool First = !F.MaestroList;
  if (First) {
    Capturing = true;
    CapturedNode = CapturedPosition = nullptr;
  }
  void *Result = F.RealDetach(Comm);
  if (First) {
    Capturing = false;
    if (!learnList(F, Comm)) {
      F.S = State::Off;
      ++F.Declined;
      return Result;
    }
  }
  ListHeader *L = F.MaestroList;
  auto *Node = static_cast<ActivityNode *>(L->Prev);
  if (Node == static_cast<NodeBase *>(L) || Node->Activity != Comm ||
      L->Size == 0) {
    ++F.Declined; // not where SimGrid 3.32 puts it: leave it there
    return Result;
  }
  Node->Prev->Next = Node->Next;
  Node->Next->Prev = Node->Prev;
  --L->Size;
  Node->Next = Node->Prev = nullptr;
  auto [It, Inserted] = F.Held.emplace(Comm, Node);
  if (!Inserted) { // detached twice: keep the first, give the second back
    Node->Next = L;
    Node->Prev = L->Prev;
    L->Prev->Next = Node;
    L->Prev = Node;
    ++L->Size;
    ++F.Declined;
    return Result;
  }
  ++F.Kept;
  if (F.Held.size() > F.MaxHeld)
    F.MaxHeld = F.Held.size();
  return Result;
}

void orreryCommFinish(void *Comm) {
  Fixes &F = fixes();
  resolve(F);
  F.RealFinish(Comm);
  if (F.Held.empty())
    return;
  auto It = F.Held.find(Comm);
  if (It == F.Held.end())
    return;
  ActivityNode *Node = It->second;
  F.Held.erase(It);
  // SimGrid's remove() dropped this reference inside finish(); the caller
  // holds another while finish() runs, so dropping it after is as safe.
  F.Release(Node->Activity);
  ::operator delete(Node, sizeof(ActivityNode));
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
