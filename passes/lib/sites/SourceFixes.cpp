//===- SourceFixes.cpp - Text fixes applied before parsing ----------------===//

#include "orrery/passes/SourceFixes.h"

using namespace llvm;

namespace orrery {

namespace {
/// Walks C/C++ text, skipping comments, string and character literals.
class Scanner {
public:
  explicit Scanner(StringRef S) : S(S) {}
  bool done() const { return I >= S.size(); }
  size_t pos() const { return I; }
  char peek(size_t Ahead = 0) const {
    return I + Ahead < S.size() ? S[I + Ahead] : '\0';
  }
  /// Advances past one token-ish unit; returns true if it was code (not a
  /// comment or literal).
  bool step() {
    char C = peek();
    if (C == '/' && peek(1) == '/') {
      while (!done() && peek() != '\n')
        ++I;
      return false;
    }
    if (C == '/' && peek(1) == '*') {
      I += 2;
      while (!done() && !(peek() == '*' && peek(1) == '/'))
        ++I;
      I = std::min(I + 2, S.size());
      return false;
    }
    if (C == '"' || C == '\'') {
      ++I;
      while (!done() && peek() != C) {
        if (peek() == '\\')
          ++I;
        ++I;
      }
      ++I;
      return false;
    }
    ++I;
    return true;
  }

private:
  StringRef S;
  size_t I = 0;
};
} // namespace

std::string fixBracedLaunchGeometry(StringRef Source,
                                    std::vector<SourceFix> &Fixes) {
  Fixes.clear();
  Scanner Sc(Source);
  while (!Sc.done()) {
    size_t P = Sc.pos();
    if (!Sc.step() || !Source.substr(P).starts_with("<<<"))
      continue;
    // Inside a launch configuration: split arguments at depth-0 commas.
    Sc.step();
    Sc.step();
    unsigned Arg = 0, Depth = 0;
    bool AtArgStart = true;
    while (!Sc.done()) {
      size_t Q = Sc.pos();
      if (Depth == 0 && Source.substr(Q).starts_with(">>>"))
        break;
      char C = Sc.peek();
      bool Code = Sc.step();
      if (!Code)
        continue; // comments and literals do not end an argument's start
      if (C == ' ' || C == '\t' || C == '\n' || C == '\r')
        continue;
      if (AtArgStart && C == '{' && Arg < 2)
        Fixes.push_back({static_cast<unsigned>(Q)});
      AtArgStart = false;
      if (C == '(' || C == '[' || C == '{')
        ++Depth;
      else if ((C == ')' || C == ']' || C == '}') && Depth > 0)
        --Depth;
      else if (C == ',' && Depth == 0) {
        ++Arg;
        AtArgStart = true;
      }
    }
  }
  if (Fixes.empty())
    return Source.str();
  std::string Out;
  Out.reserve(Source.size() + 4 * Fixes.size());
  size_t Last = 0;
  for (const SourceFix &F : Fixes) {
    Out.append(Source.data() + Last, F.Offset - Last);
    Out += "dim3";
    Last = F.Offset;
  }
  Out.append(Source.data() + Last, Source.size() - Last);
  return Out;
}

} // namespace orrery
