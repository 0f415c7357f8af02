//===- shm_cleanup.cpp - stale shared-memory regions of the shm provider --===//
//
// libfabric 1.17's shm provider names an endpoint's region
// /dev/shm/PID:UID:N (16 MiB). A process that dies without closing its
// endpoint (SIGKILL, a crash) leaves the file behind: the memory stays in
// use until someone removes it, and a later process that gets the same PID
// fails to open its endpoint with -FI_EBUSY. Before opening an shm endpoint
// RAMC removes the regions of this user that cannot belong to a live
// process:
//  - those with this process's PID that are older than this process;
//  - those whose PID no longer exists (unless RAMC_SHM_CLEANUP=own: where
//    processes of other PID namespaces share this /dev/shm, a PID missing
//    here may be alive there).
// A region whose PID was reused by an unrelated process stays until a RAMC
// process gets that PID, or someone removes it (docs/ramc.md).
//
//===----------------------------------------------------------------------===//
#include "fabric.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace ramc {

namespace {

/// The PID and UID of a region name "PID:UID:N", or false.
bool parseRegionName(const char *Name, long &Pid, long &Uid) {
  char *End = nullptr;
  Pid = std::strtol(Name, &End, 10);
  if (End == Name || *End != ':' || Pid <= 0)
    return false;
  const char *U = End + 1;
  Uid = std::strtol(U, &End, 10);
  if (End == U || *End != ':')
    return false;
  const char *N = End + 1;
  std::strtol(N, &End, 10);
  return End != N && *End == 0;
}

bool onlyOwnPid() {
  const char *V = std::getenv("RAMC_SHM_CLEANUP");
  return V && !std::strcmp(V, "own");
}

} // namespace

int removeStaleShmRegions() {
  struct stat Self;
  if (stat("/proc/self", &Self) != 0)
    return 0;
  DIR *D = opendir("/dev/shm");
  if (!D)
    return 0;
  long Me = static_cast<long>(getpid());
  bool OwnOnly = onlyOwnPid();
  int Removed = 0;
  while (dirent *E = readdir(D)) {
    long Pid, Uid;
    if (!parseRegionName(E->d_name, Pid, Uid) ||
        Uid != static_cast<long>(getuid()))
      continue;
    std::string Path = std::string("/dev/shm/") + E->d_name;
    struct stat St;
    if (stat(Path.c_str(), &St) != 0 || St.st_uid != geteuid())
      continue;
    bool Stale = Pid == Me
                     ? St.st_mtime < Self.st_ctime
                     : !OwnOnly && kill(static_cast<pid_t>(Pid), 0) != 0 &&
                           errno == ESRCH;
    if (Stale && unlink(Path.c_str()) == 0)
      ++Removed;
  }
  closedir(D);
  return Removed;
}

} // namespace ramc
