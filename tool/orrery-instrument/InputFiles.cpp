//===- InputFiles.cpp - Reading orrery-instrument's inputs once -----------===//

#include "InputFiles.h"

#include "llvm/Support/FormatVariadic.h"

#include "orrery/models/BoundedRead.h"

#include <cstring>

using namespace llvm;

namespace orrery {

static Error inputError(StringRef Path, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           formatv("{0}: {1}", Path, Why.str()));
}

Expected<std::string> readInput(StringRef Path) {
  models::BoundedRead R = models::readBounded(Path.str(), MaxInputBytes);
  switch (R.Outcome) {
  case models::ReadOutcome::Ok:
    break;
  case models::ReadOutcome::CannotOpen:
    return inputError(Path, formatv("cannot open the input ({0}); check the "
                                    "path",
                                    std::strerror(R.Errno)));
  case models::ReadOutcome::NotRegular:
    return inputError(Path, "not a regular file or a pipe; give a source "
                            "file");
  case models::ReadOutcome::ReadError:
    return inputError(
        Path, formatv("cannot read the input ({0})", std::strerror(R.Errno)));
  case models::ReadOutcome::TooLarge:
    return inputError(Path, formatv("the input is larger than {0} MiB, the "
                                    "limit for one source file",
                                    MaxInputBytes >> 20));
  }
  // An empty pipe is a FIFO nobody writes to, or a producer that failed
  // (`<(cat missing.cu)`): instrumenting nothing would exit 0 with an empty
  // output.
  if (R.Pipe && R.Text.empty())
    return inputError(Path, "the pipe gave no data (nobody writes to it, or "
                            "the command feeding it failed); give a source "
                            "file");
  return std::move(R.Text);
}

} // namespace orrery
