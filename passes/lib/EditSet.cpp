//===- EditSet.cpp - Non-overlapping wraps of byte ranges in one buffer ---===//

#include "orrery/passes/EditSet.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;

namespace orrery {

static bool crosses(unsigned B1, unsigned E1, unsigned B2, unsigned E2) {
  bool Disjoint = E1 <= B2 || E2 <= B1;
  bool Nested = (B1 <= B2 && E2 <= E1) || (B2 <= B1 && E1 <= E2);
  return !Disjoint && !Nested;
}

Error EditSet::wrap(unsigned Begin, unsigned End, std::string Prefix,
                    std::string Suffix) {
  if (Begin > End)
    return createStringError(inconvertibleErrorCode(),
                             formatv("invalid range [{0}, {1})", Begin, End));
  for (const Wrap &W : Wraps) {
    if (W.Begin == Begin && W.End == End) {
      if (W.Prefix == Prefix && W.Suffix == Suffix)
        return Error::success(); // the same site seen again
      return createStringError(
          inconvertibleErrorCode(),
          formatv("two different rewrites of the same range [{0}, {1})", Begin,
                  End));
    }
    if (crosses(W.Begin, W.End, Begin, End))
      return createStringError(
          inconvertibleErrorCode(),
          formatv("rewrite of [{0}, {1}) crosses rewrite of [{2}, {3})", Begin,
                  End, W.Begin, W.End));
  }
  Wraps.push_back({Begin, End, std::move(Prefix), std::move(Suffix)});
  return Error::success();
}

Expected<std::string> EditSet::apply(StringRef Buffer) const {
  // Events at each offset: closing suffixes first (innermost first), then
  // insertions, then opening prefixes (outermost first).
  struct Event {
    unsigned Offset;
    int Order;     // 0 = suffix, 1 = insertion, 2 = prefix
    long Priority; // smaller first within the same offset and order
    const std::string *Text;
  };
  std::vector<Event> Events;
  for (const Wrap &W : Wraps) {
    if (W.End > Buffer.size())
      return createStringError(inconvertibleErrorCode(),
                               "rewrite past the end of the buffer");
    // Innermost suffix first: the wrap that began last.
    Events.push_back({W.End, 0, -static_cast<long>(W.Begin), &W.Suffix});
    // Outermost prefix first: the wrap that ends last.
    Events.push_back({W.Begin, 2, -static_cast<long>(W.End), &W.Prefix});
  }
  for (size_t I = 0; I < Inserts.size(); ++I) {
    if (Inserts[I].Begin > Buffer.size())
      return createStringError(inconvertibleErrorCode(),
                               "insertion past the end of the buffer");
    Events.push_back(
        {Inserts[I].Begin, 1, static_cast<long>(I), &Inserts[I].Prefix});
  }
  std::stable_sort(Events.begin(), Events.end(),
                   [](const Event &A, const Event &B) {
                     if (A.Offset != B.Offset)
                       return A.Offset < B.Offset;
                     if (A.Order != B.Order)
                       return A.Order < B.Order;
                     return A.Priority < B.Priority;
                   });
  // A UTF-8 byte order mark only counts as one at the very start: it stays
  // first, before the head, and nothing is inserted before its end.
  StringRef Bom =
      Buffer.starts_with("\xEF\xBB\xBF") ? Buffer.take_front(3) : StringRef();
  std::string Out = Bom.str() + Head;
  Out.reserve(Out.size() + Buffer.size() * 2);
  unsigned Pos = Bom.size();
  for (const Event &E : Events) {
    if (E.Offset > Pos) {
      Out.append(Buffer.data() + Pos, E.Offset - Pos);
      Pos = E.Offset;
    }
    Out += *E.Text;
  }
  if (Pos < Buffer.size())
    Out.append(Buffer.data() + Pos, Buffer.size() - Pos);
  return Out;
}

} // namespace orrery
