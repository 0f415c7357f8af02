//===- AtomicFile.cpp - Replace a file whole or not at all ----------------===//

#include "orrery/support/AtomicFile.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace orrery::support {

namespace {

std::string reason() { return std::strerror(errno); }

/// Opens a new file named after \p Target in its directory; sets \p Path.
/// The pid and a counter make the name unique among threads and processes;
/// O_EXCL makes sure an existing file is never reused.
int createBeside(const std::string &Target, std::string &Path) {
  static std::atomic<unsigned> Counter{0};
  for (int Try = 0; Try < 100; ++Try) {
    Path = Target + ".tmp-" + std::to_string(getpid()) + "-" +
           std::to_string(Counter++);
    int FD = open(Path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (FD >= 0 || errno != EEXIST)
      return FD;
  }
  return -1;
}

std::string directoryOf(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  if (Slash == std::string::npos)
    return ".";
  return Slash == 0 ? "/" : Path.substr(0, Slash);
}

bool writeAll(int FD, std::string_view Text) {
  while (!Text.empty()) {
    ssize_t N = write(FD, Text.data(), Text.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      if (N == 0)
        errno = EIO;
      return false;
    }
    Text.remove_prefix(static_cast<size_t>(N));
  }
  return true;
}

} // namespace

std::string writeTemporaryBeside(const std::string &Target,
                                 std::string_view Text, std::string &Error) {
  std::string Temp;
  int FD = createBeside(Target, Temp);
  if (FD < 0) {
    std::string Why = reason();
    Error = "cannot write '" + Target + "': cannot create a file in " +
            directoryOf(Target) + ": " + Why;
    return "";
  }
  // A replaced file keeps its permissions.
  struct stat Old;
  if (stat(Target.c_str(), &Old) == 0 && S_ISREG(Old.st_mode))
    fchmod(FD, Old.st_mode & 07777);
  bool Ok = writeAll(FD, Text);
  int Saved = errno;
  if (close(FD) != 0 && Ok) {
    Ok = false;
    Saved = errno;
  }
  if (!Ok) {
    std::remove(Temp.c_str());
    Error = "cannot write '" + Target + "': " + std::strerror(Saved) +
            " (it was left unchanged)";
    return "";
  }
  return Temp;
}

bool replaceFile(const std::string &Temp, const std::string &Target,
                 std::string &Error) {
  if (std::rename(Temp.c_str(), Target.c_str()) == 0)
    return true;
  std::string Why = reason();
  Error = "cannot replace '" + Target + "': " + Why;
  std::remove(Temp.c_str());
  return false;
}

bool writeFileAtomically(const std::string &Path, std::string_view Text,
                         std::string &Error) {
  std::string Temp = writeTemporaryBeside(Path, Text, Error);
  return !Temp.empty() && replaceFile(Temp, Path, Error);
}

} // namespace orrery::support
