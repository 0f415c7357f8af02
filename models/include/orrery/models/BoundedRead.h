//===- BoundedRead.h - Reading a user's file once, within a limit -*- C++
//-*-===//
//
// The tools read files users name (machine files, sources) exactly once:
// regular files and pipes only (a directory or /dev/zero must neither hang
// a tool nor run it out of memory), never more than a limit, and a FIFO
// without a writer does not block the open. Each caller words its own
// messages from the outcome.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_BOUNDEDREAD_H
#define ORRERY_MODELS_BOUNDEDREAD_H

#include <cstddef>
#include <string>

namespace orrery::models {

enum class ReadOutcome { Ok, CannotOpen, NotRegular, TooLarge, ReadError };

struct BoundedRead {
  ReadOutcome Outcome = ReadOutcome::Ok;
  int Errno = 0;     ///< for CannotOpen and ReadError
  bool Pipe = false; ///< the file was a FIFO
  std::string Text;  ///< the contents (Ok only)
};

/// Reads \p Path once, refusing what is not a regular file or a pipe and
/// anything larger than \p MaxBytes.
BoundedRead readBounded(const std::string &Path, std::size_t MaxBytes);

} // namespace orrery::models

#endif // ORRERY_MODELS_BOUNDEDREAD_H
