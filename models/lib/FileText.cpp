//===- FileText.cpp - Bounded reading of a machine file -------------------===//

#include "FileText.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace orrery::models::detail {

bool readMachineFileText(const std::string &Path, std::string &Text,
                         std::string &Error) {
  // O_NONBLOCK: opening a FIFO nobody writes to must not block; it is
  // cleared again before reading.
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (Fd < 0) {
    Error = std::string("cannot open the file (") + std::strerror(errno) +
            "); check the path";
    return false;
  }
  struct stat St;
  if (::fstat(Fd, &St) != 0 || !(S_ISREG(St.st_mode) || S_ISFIFO(St.st_mode))) {
    ::close(Fd);
    Error = "not a regular file; give the path of a machine file "
            "(models/machines/*.yaml)";
    return false;
  }
  ::fcntl(Fd, F_SETFL, ::fcntl(Fd, F_GETFL) & ~O_NONBLOCK);
  Text.clear();
  char Buf[65536];
  for (;;) {
    ssize_t N = ::read(Fd, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      Error =
          std::string("cannot read the file (") + std::strerror(errno) + ")";
      ::close(Fd);
      return false;
    }
    if (N == 0)
      break;
    if (Text.size() + static_cast<std::size_t>(N) > MaxMachineFileBytes) {
      ::close(Fd);
      Error = "the file is larger than " +
              std::to_string(MaxMachineFileBytes >> 20) +
              " MiB, the limit for a machine file; give a machine file "
              "(models/machines/*.yaml)";
      return false;
    }
    Text.append(Buf, static_cast<std::size_t>(N));
  }
  ::close(Fd);
  return true;
}

} // namespace orrery::models::detail
