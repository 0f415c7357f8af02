//===- ShmCleanupTest.cpp - stale shm regions of a dead namesake ----------===//
#include "fabric.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

static std::string region(int N) {
  return "/dev/shm/" + std::to_string(getpid()) + ":" + std::to_string(N) +
         ":77";
}

static bool exists(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0;
}

TEST(ShmCleanup, RemovesOnlyOlderRegionsOfThisPid) {
  if (!exists("/dev/shm"))
    GTEST_SKIP() << "no /dev/shm";
  std::string Old = region(990), New = region(991);
  std::string Other = "/dev/shm/ramc-unit-" + std::to_string(getpid()) + ":0";
  for (const std::string &P : {Old, New, Other})
    if (FILE *F = std::fopen(P.c_str(), "w"))
      std::fclose(F);
  // Older than this process: left by a dead process with the same PID.
  timeval Past[2] = {{1000000000, 0}, {1000000000, 0}};
  ASSERT_EQ(utimes(Old.c_str(), Past), 0);
  ASSERT_EQ(utimes(Other.c_str(), Past), 0);
  EXPECT_GE(ramc::removeStaleShmRegions(), 1);
  EXPECT_FALSE(exists(Old));
  EXPECT_TRUE(exists(New));   // created by this process: kept
  EXPECT_TRUE(exists(Other)); // not PID:...: kept
  unlink(New.c_str());
  unlink(Other.c_str());
}
