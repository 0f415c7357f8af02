//===- InputFiles.cpp - Reading orrery-instrument's inputs once -----------===//

#include "InputFiles.h"

#include "llvm/Support/FormatVariadic.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace orrery {

static Error inputError(StringRef Path, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           formatv("{0}: {1}", Path, Why.str()));
}

Expected<std::string> readInput(StringRef Path) {
  std::string P = Path.str();
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  int Fd = ::open(P.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (Fd < 0)
    return inputError(Path, formatv("cannot open the input ({0}); check the "
                                    "path",
                                    std::strerror(errno)));
  struct stat St;
  if (::fstat(Fd, &St) != 0 || !(S_ISREG(St.st_mode) || S_ISFIFO(St.st_mode))) {
    ::close(Fd);
    return inputError(Path, "not a regular file or a pipe; give a source "
                            "file");
  }
  auto TooLarge = [&] {
    return inputError(Path, formatv("the input is larger than {0} MiB, the "
                                    "limit for one source file",
                                    MaxInputBytes >> 20));
  };
  if (S_ISREG(St.st_mode) &&
      static_cast<std::uint64_t>(St.st_size) > MaxInputBytes) {
    ::close(Fd);
    return TooLarge();
  }
  ::fcntl(Fd, F_SETFL, ::fcntl(Fd, F_GETFL) & ~O_NONBLOCK);
  std::string Text;
  char Buf[65536];
  for (;;) {
    ssize_t N = ::read(Fd, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      int E = errno;
      ::close(Fd);
      return inputError(
          Path, formatv("cannot read the input ({0})", std::strerror(E)));
    }
    if (N == 0)
      break;
    if (Text.size() + static_cast<std::uint64_t>(N) > MaxInputBytes) {
      ::close(Fd);
      return TooLarge();
    }
    Text.append(Buf, static_cast<size_t>(N));
  }
  ::close(Fd);
  // An empty pipe is a FIFO nobody writes to, or a producer that failed
  // (`<(cat missing.cu)`): instrumenting nothing would exit 0 with an empty
  // output.
  if (S_ISFIFO(St.st_mode) && Text.empty())
    return inputError(Path, "the pipe gave no data (nobody writes to it, or "
                            "the command feeding it failed); give a source "
                            "file");
  return Text;
}

} // namespace orrery
