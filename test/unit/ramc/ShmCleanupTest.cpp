//===- ShmCleanupTest.cpp - stale shm regions of dead processes -----------===//
#include "fabric.h"

#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

// Regions are named PID:UID:N, as libfabric 1.17's shm provider names them.
static std::string region(long Pid, int N) {
  return "/dev/shm/" + std::to_string(Pid) + ":" + std::to_string(getuid()) +
         ":" + std::to_string(N);
}

static bool exists(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0;
}

static void touch(const std::string &P) {
  if (FILE *F = std::fopen(P.c_str(), "w"))
    std::fclose(F);
}

/// The PID of a child that has exited and been reaped.
static pid_t deadPid() {
  pid_t C = fork();
  if (C == 0)
    _exit(0);
  int St;
  waitpid(C, &St, 0);
  return C;
}

TEST(ShmCleanup, RemovesOnlyOlderRegionsOfThisPid) {
  if (!exists("/dev/shm"))
    GTEST_SKIP() << "no /dev/shm";
  std::string Old = region(getpid(), 990), New = region(getpid(), 991);
  std::string Other = "/dev/shm/ramc-unit-" + std::to_string(getpid()) + ":0";
  for (const std::string &P : {Old, New, Other})
    touch(P);
  // Older than this process: left by a dead process with the same PID.
  timeval Past[2] = {{1000000000, 0}, {1000000000, 0}};
  ASSERT_EQ(utimes(Old.c_str(), Past), 0);
  ASSERT_EQ(utimes(Other.c_str(), Past), 0);
  EXPECT_GE(ramc::removeStaleShmRegions(), 1);
  EXPECT_FALSE(exists(Old));
  EXPECT_TRUE(exists(New));   // created by this process: kept
  EXPECT_TRUE(exists(Other)); // not PID:UID:N: kept
  unlink(New.c_str());
  unlink(Other.c_str());
}

TEST(ShmCleanup, RemovesRegionsOfProcessesThatNoLongerExist) {
  if (!exists("/dev/shm"))
    GTEST_SKIP() << "no /dev/shm";
  std::string Dead = region(deadPid(), 992);
  std::string Live = region(getppid(), 993); // the parent outlives this test
  touch(Dead);
  touch(Live);
  // Where other PID namespaces share /dev/shm, only this PID's are removed.
  setenv("RAMC_SHM_CLEANUP", "own", 1);
  ramc::removeStaleShmRegions();
  EXPECT_TRUE(exists(Dead));
  unsetenv("RAMC_SHM_CLEANUP");
  EXPECT_GE(ramc::removeStaleShmRegions(), 1);
  EXPECT_FALSE(exists(Dead));
  EXPECT_TRUE(exists(Live));
  unlink(Dead.c_str());
  unlink(Live.c_str());
}
