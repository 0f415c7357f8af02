//===- cpu_share.cpp - does this node run more processes than CPUs? -------===//
#include "cpu_share.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sched.h>
#include <sstream>
#include <unistd.h>

namespace ramc {

long countCpuList(const std::string &List) {
  long Count = 0;
  std::stringstream In(List);
  std::string Range;
  while (std::getline(In, Range, ',')) {
    while (!Range.empty() && (Range.back() == '\n' || Range.back() == ' '))
      Range.pop_back();
    if (Range.empty())
      continue;
    char *End = nullptr;
    long First = std::strtol(Range.c_str(), &End, 10);
    long Last = First;
    if (End == Range.c_str() || First < 0)
      return -1;
    if (*End == '-') {
      const char *Second = End + 1;
      Last = std::strtol(Second, &End, 10);
      if (End == Second || Last < First)
        return -1;
    }
    if (*End)
      return -1;
    Count += Last - First + 1;
  }
  return Count;
}

bool isOversubscribed(long Local, long OwnCpus, long NodeCpus) {
  if (Local <= 0)
    return false;
  long Cpus = NodeCpus > 0 ? NodeCpus : OwnCpus;
  return Cpus > 0 && Local > Cpus;
}

/// The CPU list of this process's cpuset control group, or "".
static std::string cgroupCpuList() {
  std::ifstream Groups("/proc/self/cgroup");
  std::string Line;
  while (std::getline(Groups, Line)) {
    // "0::/path" (v2) or "N:cpuset:/path" (v1; "N:cpu,cpuset:/path" too).
    size_t A = Line.find(':'), B = Line.find(':', A + 1);
    if (A == std::string::npos || B == std::string::npos)
      continue;
    std::string Controllers = Line.substr(A + 1, B - A - 1);
    std::string Path = Line.substr(B + 1);
    std::string File;
    if (Line.compare(0, A, "0") == 0 && Controllers.empty())
      File = "/sys/fs/cgroup" + Path + "/cpuset.cpus.effective";
    else if (("," + Controllers + ",").find(",cpuset,") != std::string::npos)
      File = "/sys/fs/cgroup/cpuset" + Path + "/cpuset.effective_cpus";
    else
      continue;
    std::ifstream In(File);
    std::string List;
    if (std::getline(In, List) && !List.empty())
      return List;
  }
  return "";
}

long nodeCpus() {
  long N = countCpuList(cgroupCpuList());
  if (N > 0)
    return N;
  N = sysconf(_SC_NPROCESSORS_ONLN);
  return N > 0 ? N : 0;
}

bool nodeOversubscribed() {
  long Local = 0;
  for (const char *Name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS",
                           "SLURM_NTASKS_PER_NODE"})
    if (const char *V = std::getenv(Name))
      if ((Local = std::strtol(V, nullptr, 10)) > 0)
        break;
  cpu_set_t Set;
  long Own = sched_getaffinity(0, sizeof(Set), &Set) ? 0 : CPU_COUNT(&Set);
  return isOversubscribed(Local, Own, nodeCpus());
}

} // namespace ramc
