//===- LivenessTest.cpp - telling that a peer's process has exited --------===//
#include "liveness.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

using ramc::checkProcess;
using ramc::Liveness;
using ramc::ProcessIdentity;
using ramc::selfIdentity;

namespace {

/// Field 22 (start time) of /proc/PID/stat, read here independently.
uint64_t startTime(pid_t Pid) {
  char Path[64], Buf[1024] = {0};
  std::snprintf(Path, sizeof(Path), "/proc/%d/stat", static_cast<int>(Pid));
  FILE *F = std::fopen(Path, "r");
  if (!F)
    return 0;
  size_t N = std::fread(Buf, 1, sizeof(Buf) - 1, F);
  std::fclose(F);
  Buf[N] = 0;
  // Fields after "PID (comm)": P steps to the space before field 22.
  const char *P = std::strrchr(Buf, ')');
  for (int Field = 3; P && Field <= 22; ++Field)
    P = std::strchr(P + 1, ' ');
  return P ? std::strtoull(P + 1, nullptr, 10) : 0;
}

ProcessIdentity identityOf(pid_t Pid) {
  ProcessIdentity P = selfIdentity();
  P.Pid = static_cast<uint32_t>(Pid);
  P.Start = startTime(Pid);
  return P;
}

} // namespace

TEST(Liveness, ThisProcessIsAlive) {
  if (!selfIdentity().Host)
    GTEST_SKIP() << "no /proc here";
  EXPECT_EQ(selfIdentity().Start, startTime(getpid()));
  EXPECT_EQ(checkProcess(selfIdentity()), Liveness::Alive);
  EXPECT_EQ(checkProcess(identityOf(getppid())), Liveness::Alive);
}

TEST(Liveness, ExitedZombieAndReusedPidsAreGone) {
  if (!selfIdentity().Host)
    GTEST_SKIP() << "no /proc here";
  pid_t C = fork();
  if (C == 0) {
    pause();
    _exit(0);
  }
  ProcessIdentity Child = identityOf(C);
  ASSERT_NE(Child.Start, 0u);
  EXPECT_EQ(checkProcess(Child), Liveness::Alive);
  kill(C, SIGKILL);
  siginfo_t Info;
  // Dead but not reaped: a zombie.
  ASSERT_EQ(waitid(P_PID, C, &Info, WEXITED | WNOWAIT), 0);
  EXPECT_EQ(checkProcess(Child), Liveness::Gone);
  waitpid(C, nullptr, 0); // reaped: no such process
  EXPECT_EQ(checkProcess(Child), Liveness::Gone);
  // The PID now running something that started at another time.
  ProcessIdentity Reused = selfIdentity();
  Reused.Start += 1;
  EXPECT_EQ(checkProcess(Reused), Liveness::Gone);
}

TEST(Liveness, OtherHostsAreUnknown) {
  ProcessIdentity Elsewhere = selfIdentity();
  Elsewhere.Host ^= 1;
  EXPECT_EQ(checkProcess(Elsewhere), Liveness::Unknown);
}
