//===- liveness.cpp - is a peer's process still there? --------------------===//
#include "liveness.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace ramc {

namespace {

enum class Stat { Read, NoProcess, Unreadable };

/// The state letter and start time of /proc/PID/stat.
Stat readStat(uint32_t Pid, char &State, uint64_t &Start) {
  char Path[64];
  std::snprintf(Path, sizeof(Path), "/proc/%u/stat", Pid);
  FILE *F = std::fopen(Path, "r");
  if (!F)
    return errno == ENOENT ? Stat::NoProcess : Stat::Unreadable;
  char Buf[1024];
  size_t N = std::fread(Buf, 1, sizeof(Buf) - 1, F);
  std::fclose(F);
  Buf[N] = 0;
  // "PID (comm) S ppid ...": comm may hold spaces and parentheses, so the
  // fields start after the last ')'. Start time is field 22; the state is
  // field 3, the first after comm.
  const char *P = std::strrchr(Buf, ')');
  if (!P || P[1] != ' ')
    return Stat::Unreadable;
  State = P[2];
  P += 2;
  for (int Field = 3; Field < 22 && P; ++Field) {
    P = std::strchr(P, ' ');
    if (P)
      ++P;
  }
  if (!P)
    return Stat::Unreadable;
  Start = std::strtoull(P, nullptr, 10);
  return Stat::Read;
}

uint64_t fnv1a(const void *Data, size_t Len, uint64_t H) {
  const auto *B = static_cast<const unsigned char *>(Data);
  for (size_t I = 0; I < Len; ++I)
    H = (H ^ B[I]) * 1099511628211ull;
  return H;
}

ProcessIdentity computeSelf() {
  ProcessIdentity Me;
  Me.Pid = static_cast<uint32_t>(getpid());
  char State;
  if (readStat(Me.Pid, State, Me.Start) != Stat::Read)
    return Me; // no /proc: Host stays 0 (unknown), nothing is checked
  char Boot[64] = {0};
  if (FILE *F = std::fopen("/proc/sys/kernel/random/boot_id", "r")) {
    if (!std::fgets(Boot, sizeof(Boot), F))
      Boot[0] = 0;
    std::fclose(F);
  }
  struct stat Ns;
  if (!Boot[0] || stat("/proc/self/ns/pid", &Ns) != 0)
    return Me;
  uint64_t H = fnv1a(Boot, std::strlen(Boot), 14695981039346656037ull);
  uint64_t Ino = Ns.st_ino, Dev = Ns.st_dev;
  H = fnv1a(&Ino, sizeof(Ino), H);
  H = fnv1a(&Dev, sizeof(Dev), H);
  Me.Host = H ? H : 1;
  return Me;
}

} // namespace

const ProcessIdentity &selfIdentity() {
  static const ProcessIdentity Me = computeSelf();
  return Me;
}

Liveness checkProcess(const ProcessIdentity &P) {
  const ProcessIdentity &Me = selfIdentity();
  if (!Me.Host || P.Host != Me.Host || !P.Pid)
    return Liveness::Unknown;
  char State = 0;
  uint64_t Start = 0;
  switch (readStat(P.Pid, State, Start)) {
  case Stat::NoProcess:
    return Liveness::Gone;
  case Stat::Unreadable:
    return Liveness::Unknown;
  case Stat::Read:
    break;
  }
  if (State == 'Z' || State == 'X' || Start != P.Start)
    return Liveness::Gone; // a zombie, or a newer process with the same PID
  return Liveness::Alive;
}

} // namespace ramc
