//===- BoundedRead.cpp - Reading a user's file once, within a limit -------===//

#include "orrery/models/BoundedRead.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace orrery::models {

BoundedRead readBounded(const std::string &Path, std::size_t MaxBytes) {
  BoundedRead R;
  // O_NONBLOCK: opening a FIFO nobody writes to must not block; it is
  // cleared again before reading.
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (Fd < 0) {
    R.Outcome = ReadOutcome::CannotOpen;
    R.Errno = errno;
    return R;
  }
  struct stat St;
  if (::fstat(Fd, &St) != 0 || !(S_ISREG(St.st_mode) || S_ISFIFO(St.st_mode))) {
    ::close(Fd);
    R.Outcome = ReadOutcome::NotRegular;
    return R;
  }
  R.Pipe = S_ISFIFO(St.st_mode);
  if (!R.Pipe && static_cast<std::uint64_t>(St.st_size) > MaxBytes) {
    ::close(Fd);
    R.Outcome = ReadOutcome::TooLarge;
    return R;
  }
  ::fcntl(Fd, F_SETFL, ::fcntl(Fd, F_GETFL) & ~O_NONBLOCK);
  char Buf[65536];
  for (;;) {
    ssize_t N = ::read(Fd, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      R.Outcome = ReadOutcome::ReadError;
      R.Errno = errno;
      break;
    }
    if (N == 0)
      break;
    if (R.Text.size() + static_cast<std::size_t>(N) > MaxBytes) {
      R.Outcome = ReadOutcome::TooLarge;
      break;
    }
    R.Text.append(Buf, static_cast<std::size_t>(N));
  }
  ::close(Fd);
  if (R.Outcome != ReadOutcome::Ok)
    R.Text.clear();
  return R;
}

} // namespace orrery::models
