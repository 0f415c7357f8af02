//===- CpuShareTest.cpp - oversubscription from CPU counts ----------------===//
#include "cpu_share.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

using namespace ramc;

TEST(CpuShareTest, CountsLinuxCpuLists) {
  EXPECT_EQ(countCpuList("0"), 1);
  EXPECT_EQ(countCpuList("0-3"), 4);
  EXPECT_EQ(countCpuList("0-3,8,10-11\n"), 7);
  EXPECT_EQ(countCpuList(""), 0);
  EXPECT_EQ(countCpuList("3-1"), -1);
  EXPECT_EQ(countCpuList("a-b"), -1);
  EXPECT_EQ(countCpuList("0-"), -1);
  EXPECT_EQ(countCpuList("1x"), -1);
}

TEST(CpuShareTest, BoundProcessesWithACoreEachAreNotOversubscribed) {
  // Two processes on a 2-CPU node, each bound to one core (Open MPI's
  // default for two processes).
  EXPECT_FALSE(isOversubscribed(2, 1, 2));
  // Eight bound processes on a 64-core node.
  EXPECT_FALSE(isOversubscribed(8, 1, 64));
  // Unbound processes see every CPU of the node.
  EXPECT_FALSE(isOversubscribed(2, 2, 2));
}

TEST(CpuShareTest, MoreProcessesThanTheNodesCpusAreOversubscribed) {
  EXPECT_TRUE(isOversubscribed(9, 2, 2));
  EXPECT_TRUE(isOversubscribed(3, 1, 2));
  // The node's CPUs unknown: this process's own stand for them.
  EXPECT_TRUE(isOversubscribed(4, 2, 0));
  EXPECT_FALSE(isOversubscribed(2, 2, 0));
}

TEST(CpuShareTest, UnknownLocalSizeIsNotOversubscribed) {
  EXPECT_FALSE(isOversubscribed(0, 1, 2));
  EXPECT_FALSE(isOversubscribed(5, 0, 0));
}

TEST(CpuShareTest, NodeCpusLieBetweenThisProcesssAndTheMachines) {
  // The control group's CPUs hold this process's and are among the
  // machine's configured ones.
  cpu_set_t Set;
  ASSERT_EQ(sched_getaffinity(0, sizeof(Set), &Set), 0);
  long Node = nodeCpus();
  EXPECT_GE(Node, CPU_COUNT(&Set));
  EXPECT_LE(Node, sysconf(_SC_NPROCESSORS_CONF));
}
