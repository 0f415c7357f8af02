//===- shm_cleanup.cpp - stale shared-memory regions of the shm provider --===//
//
// libfabric 1.17's shm provider names an endpoint's region /dev/shm/PID:N:M.
// A process that dies without closing its endpoint leaves the file behind,
// and a later process that gets the same PID then fails to open its
// endpoint with -FI_EBUSY. A file that carries this process's PID but is
// older than this process cannot belong to a live process: remove it.
//
//===----------------------------------------------------------------------===//
#include "fabric.h"

#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace ramc {

int removeStaleShmRegions() {
  struct stat Self;
  if (stat("/proc/self", &Self) != 0)
    return 0;
  DIR *D = opendir("/dev/shm");
  if (!D)
    return 0;
  std::string Prefix = std::to_string(getpid()) + ":";
  int Removed = 0;
  while (dirent *E = readdir(D)) {
    if (std::strncmp(E->d_name, Prefix.c_str(), Prefix.size()) != 0)
      continue;
    std::string Path = std::string("/dev/shm/") + E->d_name;
    struct stat St;
    if (stat(Path.c_str(), &St) == 0 && St.st_mtime < Self.st_ctime &&
        unlink(Path.c_str()) == 0)
      ++Removed;
  }
  closedir(D);
  return Removed;
}

} // namespace ramc
