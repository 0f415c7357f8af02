//===- InstrumentInputFuzzer.cpp - libFuzzer target: input handling
//--------===//
//
// What orrery-instrument does with the raw bytes of an input before and
// after clang parses it: the braced-launch-geometry fix, the edit set
// (byte order mark kept first) and the escaping of names written into
// generated code. Properties checked, beyond "no crash":
//  - the geometry fix only inserts "dim3" at the offsets it reports;
//  - a string literal made by cStringLiteral decodes to the input bytes;
//  - commentText never contains "*/" or "/*".
//
//===----------------------------------------------------------------------===//

#include "GeneratedText.h"
#include "orrery/passes/EditSet.h"
#include "orrery/passes/SourceFixes.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace orrery;

namespace {

void check(bool Ok) {
  if (!Ok)
    std::abort();
}

/// Decodes a literal written by cStringLiteral (C escapes it uses only).
std::string decode(const std::string &Lit) {
  check(Lit.size() >= 2 && Lit.front() == '"' && Lit.back() == '"');
  std::string Out;
  for (size_t I = 1; I + 1 < Lit.size(); ++I) {
    char C = Lit[I];
    check(C != '"' && C != '\n' && static_cast<unsigned char>(C) >= 0x20 &&
          static_cast<unsigned char>(C) < 0x7f);
    if (C != '\\') {
      check(!(C == '?' && Lit[I + 1] == '?')); // no trigraph
      Out += C;
      continue;
    }
    char E = Lit[++I];
    if (E >= '0' && E <= '7') {
      check(I + 3 < Lit.size());
      int V = (E - '0') * 64 + (Lit[I + 1] - '0') * 8 + (Lit[I + 2] - '0');
      Out += static_cast<char>(V);
      I += 2;
    } else {
      check(E == '"' || E == '\\' || E == '?');
      Out += E;
    }
  }
  return Out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data,
                                      std::size_t Size) {
  llvm::StringRef In(reinterpret_cast<const char *>(Data), Size);

  std::vector<SourceFix> Fixes;
  std::string Fixed = fixBracedLaunchGeometry(In, Fixes);
  check(Fixed.size() == In.size() + 4 * Fixes.size());

  check(decode(cStringLiteral(In)) == In.str());
  std::string Comment = commentText(In);
  check(Comment.find("*/") == std::string::npos &&
        Comment.find("/*") == std::string::npos);

  // A head, an insertion at the start and a wrap of the whole text: the
  // text itself is kept, after a byte order mark if it starts with one.
  EditSet Edits;
  Edits.setHead("/*head*/\n");
  Edits.insert(0, "/*at 0*/");
  check(!Edits.wrap(0, static_cast<unsigned>(In.size()), "(", ")"));
  llvm::Expected<std::string> Out = Edits.apply(In);
  check(static_cast<bool>(Out));
  bool Bom = In.starts_with("\xEF\xBB\xBF");
  check(llvm::StringRef(*Out).starts_with(Bom ? "\xEF\xBB\xBF/*head*/"
                                              : "/*head*/"));
  return 0;
}
