//===- NvccMacros.cpp - Code written for nvcc's macros --------------------===//

#include "orrery/passes/NvccMacros.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace orrery {

const std::vector<std::pair<std::string, std::string>> &nvccMacroRenames() {
  static const std::vector<std::pair<std::string, std::string>> Names = {
      {"__NVCC__", "__ORRERY_NVCC__"},
      {"__CUDACC_VER_MAJOR__", "__ORRERY_CUDACC_VER_MAJOR__"},
      {"__CUDACC_VER_MINOR__", "__ORRERY_CUDACC_VER_MINOR__"},
      {"__CUDACC_VER_BUILD__", "__ORRERY_CUDACC_VER_BUILD__"}};
  return Names;
}

namespace {

bool isIdent(char C) { return isAlnum(C) || C == '_'; }

} // namespace

std::string renameNvccMacros(StringRef Source, unsigned &Count) {
  Count = 0;
  // Cheap test first: most files mention none of the names.
  bool Any = false;
  for (const auto &[From, To] : nvccMacroRenames())
    Any = Any || Source.contains(From);
  if (!Any)
    return Source.str();
  // Whole identifiers in code (directives included), not in comments,
  // string or character literals.
  enum { Code, LineComment, BlockComment, String, Char } State = Code;
  std::string Out;
  Out.reserve(Source.size() + 64);
  for (size_t I = 0; I < Source.size();) {
    char C = Source[I];
    switch (State) {
    case LineComment:
      if (C == '\n')
        State = Code;
      Out += C;
      ++I;
      continue;
    case BlockComment:
      if (Source.substr(I).starts_with("*/")) {
        Out += "*/";
        I += 2;
        State = Code;
        continue;
      }
      Out += C;
      ++I;
      continue;
    case String:
    case Char:
      if (C == '\\' && I + 1 < Source.size()) {
        Out += Source.substr(I, 2).str();
        I += 2;
        continue;
      }
      if ((State == String && C == '"') || (State == Char && C == '\'') ||
          C == '\n')
        State = Code;
      Out += C;
      ++I;
      continue;
    case Code:
      break;
    }
    if (Source.substr(I).starts_with("//")) {
      State = LineComment;
      Out += "//";
      I += 2;
      continue;
    }
    if (Source.substr(I).starts_with("/*")) {
      State = BlockComment;
      Out += "/*";
      I += 2;
      continue;
    }
    if (C == '"' || (C == '\'' && !(I > 0 && isHexDigit(Source[I - 1])))) {
      // (a digit separator, 1'000, is no character literal)
      State = C == '"' ? String : Char;
      Out += C;
      ++I;
      continue;
    }
    if (!isIdent(C)) {
      Out += C;
      ++I;
      continue;
    }
    size_t E = I;
    while (E < Source.size() && isIdent(Source[E]))
      ++E;
    StringRef Word = Source.slice(I, E);
    std::string Renamed = Word.str();
    for (const auto &[From, To] : nvccMacroRenames())
      if (Word == From) {
        Renamed = To;
        ++Count;
        break;
      }
    Out += Renamed;
    I = E;
  }
  return Out;
}

} // namespace orrery
