//===- NvtxRanges.cpp - NVTX ranges on the simulated timeline -------------===//
//
// NVTX 3 is header-only: each call goes through a table that an injection
// library fills. Skeleton programs carry a static injection (SkeletonEntry.c
// defines InitializeInjectionNvtx2_fnptr as orrery_nvtx_inject), so a
// program's nvtxRangePush/Pop, nvtxRangeStart/End and nvtxMark become spans
// on the rank's "NVTX" track of the timeline (--trace). They cost no
// simulated time. Every copy of the program (one per rank) injects into its
// own table.
//
//===----------------------------------------------------------------------===//

#include "ranks/RankEnvironment.h"
#include "ranks/Runtime.h"

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <map>
#include <string>
#include <vector>

using namespace orrery::sim;

namespace {

struct OpenRange {
  std::string Name;
  double Start = 0;
};

/// Per rank: the push/pop stack and the start/end ranges by id.
struct RankRanges {
  std::vector<OpenRange> Stack;
  std::map<nvtxRangeId_t, OpenRange> Started;
};

std::map<int, RankRanges> &ranges() {
  static auto *M = new std::map<int, RankRanges>;
  return *M;
}

std::string messageOf(const nvtxEventAttributes_t *A) {
  if (A && A->messageType == NVTX_MESSAGE_TYPE_ASCII && A->message.ascii)
    return A->message.ascii;
  return "(unnamed range)";
}

void emit(int Rank, const OpenRange &R) {
  Report &Rep = Runtime::get().report();
  if (Rep.tracing())
    Rep.span({Rank, NvtxTrack, R.Start, now() - R.Start, R.Name,
              Category::CallOverhead});
}

int push(std::string Name) {
  if (!inRankActor())
    return -1;
  RankRanges &RR = ranges()[Runtime::get().rank().Id];
  RR.Stack.push_back({std::move(Name), now()});
  return static_cast<int>(RR.Stack.size()) - 1;
}

int NVTX_API rangePushA(const char *M) { return push(M ? M : ""); }
int NVTX_API rangePushEx(const nvtxEventAttributes_t *A) {
  return push(messageOf(A));
}
int NVTX_API rangePushW(const wchar_t *) { return push("(wide-string range)"); }

int NVTX_API rangePop() {
  if (!inRankActor())
    return -1;
  int Id = Runtime::get().rank().Id;
  RankRanges &RR = ranges()[Id];
  if (RR.Stack.empty())
    return -1;
  emit(Id, RR.Stack.back());
  RR.Stack.pop_back();
  return static_cast<int>(RR.Stack.size());
}

nvtxRangeId_t start(std::string Name) {
  static nvtxRangeId_t Next = 1;
  if (!inRankActor())
    return 0;
  RankRanges &RR = ranges()[Runtime::get().rank().Id];
  nvtxRangeId_t Id = Next++;
  RR.Started[Id] = {std::move(Name), now()};
  return Id;
}

nvtxRangeId_t NVTX_API rangeStartA(const char *M) { return start(M ? M : ""); }
nvtxRangeId_t NVTX_API rangeStartEx(const nvtxEventAttributes_t *A) {
  return start(messageOf(A));
}

void NVTX_API rangeEnd(nvtxRangeId_t Id) {
  if (!inRankActor())
    return;
  int Rank = Runtime::get().rank().Id;
  RankRanges &RR = ranges()[Rank];
  auto It = RR.Started.find(Id);
  if (It == RR.Started.end())
    return;
  emit(Rank, It->second);
  RR.Started.erase(It);
}

void NVTX_API markA(const char *M) {
  if (inRankActor())
    emit(Runtime::get().rank().Id, {M ? M : "", now()});
}
void NVTX_API markEx(const nvtxEventAttributes_t *A) {
  if (inRankActor())
    emit(Runtime::get().rank().Id, {messageOf(A), now()});
}

} // namespace

extern "C" int orrery_nvtx_inject(NvtxGetExportTableFunc_t GetExportTable) {
  const auto *Callbacks = static_cast<const NvtxExportTableCallbacks *>(
      GetExportTable(NVTX_ETID_CALLBACKS));
  NvtxFunctionTable Table = nullptr;
  unsigned Size = 0;
  if (!Callbacks ||
      !Callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &Table, &Size) ||
      !Table)
    return 0;
  auto Set = [&](unsigned Id, auto *F) {
    if (Id <= Size && Table[Id])
      *Table[Id] = reinterpret_cast<NvtxFunctionPointer>(F);
  };
  Set(NVTX_CBID_CORE_MarkEx, markEx);
  Set(NVTX_CBID_CORE_MarkA, markA);
  Set(NVTX_CBID_CORE_RangeStartEx, rangeStartEx);
  Set(NVTX_CBID_CORE_RangeStartA, rangeStartA);
  Set(NVTX_CBID_CORE_RangeEnd, rangeEnd);
  Set(NVTX_CBID_CORE_RangePushEx, rangePushEx);
  Set(NVTX_CBID_CORE_RangePushA, rangePushA);
  Set(NVTX_CBID_CORE_RangePushW, rangePushW);
  Set(NVTX_CBID_CORE_RangePop, rangePop);
  return 1;
}
