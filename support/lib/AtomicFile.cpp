//===- AtomicFile.cpp - Replace a file whole or not at all ----------------===//

#include "orrery/support/AtomicFile.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
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

/// What an existing non-regular file is, for messages; "" for a regular
/// file or nothing.
const char *specialKind(const struct stat &S) {
  if (S_ISREG(S.st_mode))
    return "";
  if (S_ISDIR(S.st_mode))
    return "a directory";
  if (S_ISCHR(S.st_mode))
    return "a character device";
  if (S_ISBLK(S.st_mode))
    return "a block device";
  if (S_ISFIFO(S.st_mode))
    return "a FIFO";
  if (S_ISSOCK(S.st_mode))
    return "a socket";
  return "not a regular file";
}

/// \p Target, or the file a link there points to: renaming over a link
/// would replace the link, not the file the user reads through it.
std::string resolved(const std::string &Target) {
  struct stat L;
  if (lstat(Target.c_str(), &L) != 0 || !S_ISLNK(L.st_mode))
    return Target;
  char Buf[PATH_MAX];
  return realpath(Target.c_str(), Buf) ? std::string(Buf) : Target;
}

/// Refuses to replace anything but a regular file.
bool regularOrAbsent(const std::string &Path, std::string &Error) {
  struct stat S;
  if (stat(Path.c_str(), &S) != 0)
    return true;
  const char *Kind = specialKind(S);
  if (!*Kind)
    return true;
  Error = "cannot write '" + Path + "': it is " + Kind +
          ", and Orrery writes only regular files; name a file instead";
  return false;
}

} // namespace

bool checkOutputPath(const std::string &Option, const std::string &Path,
                     const std::vector<std::string> &Inputs,
                     std::string &Error) {
  struct stat Out;
  if (Path.empty() || Path == "-" || stat(Path.c_str(), &Out) != 0)
    return true;
  const char *Kind = specialKind(Out);
  if (*Kind) {
    Error = Option + " " + Path + " is " + Kind +
            "; Orrery writes only regular files: name a file" +
            (S_ISDIR(Out.st_mode) ? " in it" : "");
    return false;
  }
  for (const std::string &In : Inputs) {
    struct stat S;
    if (!In.empty() && stat(In.c_str(), &S) == 0 && S.st_dev == Out.st_dev &&
        S.st_ino == Out.st_ino) {
      Error = Option + " " + Path + " is " +
              (In == Path ? "an input of this command"
                          : "the same file as the input " + In) +
              ": writing it would destroy it; name another file";
      return false;
    }
  }
  return true;
}

std::string writeTemporaryBeside(const std::string &Requested,
                                 std::string_view Text, std::string &Error) {
  std::string Target = resolved(Requested);
  if (!regularOrAbsent(Target, Error))
    return "";
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

bool replaceFile(const std::string &Temp, const std::string &Requested,
                 std::string &Error) {
  std::string Target = resolved(Requested);
  if (!regularOrAbsent(Target, Error)) {
    std::remove(Temp.c_str());
    return false;
  }
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
