//===- SignalCleanup.cpp - orrery-cxx: no temporary directory left --------===//

#include "SignalCleanup.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace orrery {
namespace cxx {

namespace {

const int Signals[] = {SIGHUP, SIGINT, SIGPIPE, SIGTERM};

/// The directory to remove; written before the handlers are installed.
char CleanupDir[PATH_MAX];
volatile sig_atomic_t HaveCleanupDir = 0;

/// Removes Name below the directory ParentFd (a file, or a directory and
/// its contents). Only system calls: this runs in a signal handler.
void removeAt(int ParentFd, const char *Name, int Depth) {
  if (::unlinkat(ParentFd, Name, 0) == 0 ||
      (errno != EISDIR && errno != EPERM) || Depth > 32)
    return;
  int Fd =
      ::openat(ParentFd, Name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (Fd < 0)
    return;
  // Entries removed while reading may shift the rest: read again until a
  // pass removes nothing.
  for (int Pass = 0; Pass < 64; ++Pass) {
    bool Removed = false;
    ::lseek(Fd, 0, SEEK_SET);
    alignas(struct dirent64) char Buf[2048];
    ssize_t N;
    while ((N = ::getdents64(Fd, Buf, sizeof Buf)) > 0) {
      for (ssize_t Off = 0; Off < N;) {
        const auto *D = reinterpret_cast<const struct dirent64 *>(Buf + Off);
        Off += D->d_reclen;
        if (std::strcmp(D->d_name, ".") == 0 ||
            std::strcmp(D->d_name, "..") == 0)
          continue;
        removeAt(Fd, D->d_name, Depth + 1);
        Removed = true;
      }
    }
    if (!Removed)
      break;
  }
  ::close(Fd);
  ::unlinkat(ParentFd, Name, AT_REMOVEDIR);
}

void onSignal(int Sig) {
  int SavedErrno = errno;
  if (HaveCleanupDir)
    removeAt(AT_FDCWD, CleanupDir, 0);
  errno = SavedErrno;
  // SA_RESETHAND restored the default action: die of the same signal, so
  // the parent sees what happened.
  ::raise(Sig);
}

} // namespace

void removeOnSignal(const std::string &Dir) {
  if (Dir.size() >= sizeof CleanupDir)
    return;
  std::memcpy(CleanupDir, Dir.c_str(), Dir.size() + 1);
  HaveCleanupDir = 1;
  struct sigaction SA;
  std::memset(&SA, 0, sizeof SA);
  SA.sa_handler = onSignal;
  SA.sa_flags = SA_RESETHAND | SA_NODEFER;
  sigemptyset(&SA.sa_mask);
  for (int Sig : Signals) {
    struct sigaction Old;
    // A signal ignored by whoever started us (nohup) stays ignored.
    if (::sigaction(Sig, nullptr, &Old) == 0 && Old.sa_handler == SIG_IGN)
      continue;
    ::sigaction(Sig, &SA, nullptr);
  }
}

void clearRemoveOnSignal() { HaveCleanupDir = 0; }

} // namespace cxx
} // namespace orrery
