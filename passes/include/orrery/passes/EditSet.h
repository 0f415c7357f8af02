//===- EditSet.h - Non-overlapping wraps of byte ranges in one buffer -----===//
//
// Every Orrery rewrite wraps a call's text: a prefix before it and a suffix
// after it, leaving the original call intact. Calls nest (an MPI call inside
// CHECK(...), cudaGetErrorString(cudaGetLastError())), so wraps may nest but
// never cross. The same wrap seen twice (a macro argument expanded twice) is
// recorded once; two different wraps of the same range, or crossing ranges,
// are conflicts and reported as errors.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_EDITSET_H
#define ORRERY_PASSES_EDITSET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace orrery {

class EditSet {
public:
  /// Wraps [Begin, End) with Prefix and Suffix.
  llvm::Error wrap(unsigned Begin, unsigned End, std::string Prefix,
                   std::string Suffix);

  /// Inserts Text at Offset, before any wrap that opens there. Insertions at
  /// one offset keep their order.
  void insert(unsigned Offset, std::string Text) {
    Inserts.push_back({Offset, Offset, std::move(Text), ""});
  }

  /// Text placed before everything else (the hook include and site table).
  void setHead(std::string Text) { Head = std::move(Text); }

  bool empty() const { return Wraps.empty(); }
  size_t size() const { return Wraps.size(); }

  /// The buffer with all edits applied.
  llvm::Expected<std::string> apply(llvm::StringRef Buffer) const;

private:
  struct Wrap {
    unsigned Begin, End;
    std::string Prefix, Suffix;
  };
  std::vector<Wrap> Wraps;
  std::vector<Wrap> Inserts;
  std::string Head;
};

} // namespace orrery

#endif
