//===- PtxasOutput.cpp - Read `ptxas -v` resource lines -------------------===//
//
//   ptxas info    : Compiling entry function '_Z4axpyPfi' for 'sm_90'
//   ptxas info    : Function properties for _Z4axpyPfi
//       8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 10 registers, used 1 barriers, 512 bytes smem, ...
//
// "Function properties" also appear for non-inlined device functions; only
// the entry being compiled is kept.
//
//===----------------------------------------------------------------------===//

#include "orrery/passes/DeviceResources.h"

#include "llvm/ADT/SmallVector.h"

using namespace llvm;

namespace orrery {

/// The number before \p Unit in a comma-separated list ("512 bytes smem").
static unsigned numberBefore(StringRef Line, StringRef Unit) {
  SmallVector<StringRef, 8> Parts;
  Line.split(Parts, ',');
  for (StringRef P : Parts) {
    P = P.trim();
    if (P.starts_with("Used "))
      P = P.drop_front(5);
    auto [Number, Rest] = P.split(' ');
    unsigned V;
    if (Rest.trim() == Unit && !Number.getAsInteger(10, V))
      return V;
  }
  return 0;
}

std::map<std::string, DeviceResources> parsePtxasVerbose(StringRef Text,
                                                         StringRef Arch) {
  std::map<std::string, DeviceResources> Out;
  std::string Entry;
  bool PropertiesOfEntry = false;
  SmallVector<StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (StringRef Line : Lines) {
    StringRef Info = Line;
    if (Info.consume_front("ptxas info")) {
      Info = Info.ltrim(" \t");
      Info.consume_front(":");
      Info = Info.trim();
      PropertiesOfEntry = false;
      if (Info.consume_front("Compiling entry function '")) {
        Entry = Info.split('\'').first.str();
        Out[Entry].Arch = Arch.str();
      } else if (Info.consume_front("Function properties for ")) {
        PropertiesOfEntry = !Entry.empty() && Info == Entry;
      } else if (Info.starts_with("Used ") && !Entry.empty()) {
        DeviceResources &R = Out[Entry];
        R.Registers = numberBefore(Info, "registers");
        R.StaticSharedBytes = numberBefore(Info, "bytes smem");
      }
      continue;
    }
    if (PropertiesOfEntry && Line.contains("stack frame")) {
      DeviceResources &R = Out[Entry];
      R.StackBytes = numberBefore(Line, "bytes stack frame");
      R.SpillStoreBytes = numberBefore(Line, "bytes spill stores");
      R.SpillLoadBytes = numberBefore(Line, "bytes spill loads");
      PropertiesOfEntry = false;
    }
  }
  return Out;
}

} // namespace orrery
