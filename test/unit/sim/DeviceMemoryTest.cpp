//===- DeviceMemoryTest.cpp - The allocation registry and its memo --------===//

#include "gpu/DeviceMemory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace orrery::sim;

namespace {

const char *at(const void *P, std::size_t Offset) {
  return static_cast<const char *>(P) + Offset;
}

} // namespace

TEST(DeviceMemory, FindsTheAllocationHoldingAPointer) {
  DeviceMemory &M = DeviceMemory::get();
  void *P = M.allocate(4096, /*Rank=*/3, /*Device=*/1, MemoryKind::Device);
  ASSERT_NE(P, nullptr);
  const Allocation *A = M.find(at(P, 100));
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(A->Base, reinterpret_cast<std::uintptr_t>(P));
  EXPECT_EQ(A->Rank, 3);
  EXPECT_EQ(A->Device, 1);
  EXPECT_TRUE(M.isDevice(at(P, 4095)));
  EXPECT_FALSE(M.isDevice(at(P, 4096))); // one past the end
  int Host = 0;
  EXPECT_EQ(M.find(&Host), nullptr);
  EXPECT_TRUE(M.release(P));
}

// A remembered answer must not outlive the allocation it names: after a
// release find() says nothing is there (a stale memo would hand back the
// freed record), and a new allocation is found with its own record.
TEST(DeviceMemory, RememberedAnswersFollowReleases) {
  DeviceMemory &M = DeviceMemory::get();
  void *P = M.allocate(1 << 16, 0, 0, MemoryKind::Device);
  ASSERT_NE(P, nullptr);
  ASSERT_NE(M.find(P), nullptr); // remembered now
  ASSERT_TRUE(M.release(P));
  EXPECT_EQ(M.find(P), nullptr);
  EXPECT_EQ(M.findOnce(P), nullptr);
  void *Q = M.allocate(1 << 16, 5, 2, MemoryKind::Device);
  ASSERT_NE(Q, nullptr);
  const Allocation *A = M.find(Q);
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(A->Rank, 5);
  EXPECT_TRUE(M.release(Q));
}

// findOnce gives find's answers without remembering them; pointers it was
// asked about stay answerable by find, and find's memo stays right.
TEST(DeviceMemory, FindOnceAgreesWithFind) {
  DeviceMemory &M = DeviceMemory::get();
  std::vector<void *> Blocks;
  for (int I = 0; I < 8; ++I) {
    Blocks.push_back(M.allocate(8192, I, 0, MemoryKind::Device));
    ASSERT_NE(Blocks.back(), nullptr);
  }
  for (void *P : Blocks)
    for (std::size_t Off : {0, 1, 8191, 8192}) {
      const char *Q = at(P, Off);
      EXPECT_EQ(M.findOnce(Q), M.find(Q)) << "offset " << Off;
      EXPECT_EQ(M.find(Q), M.findOnce(Q)) << "offset " << Off;
    }
  int Host = 0;
  EXPECT_EQ(M.findOnce(&Host), nullptr);
  EXPECT_FALSE(DeviceMemory::isDevice(M.findOnce(&Host)));
  EXPECT_TRUE(DeviceMemory::isDevice(M.findOnce(Blocks.front())));
  for (void *P : Blocks)
    EXPECT_TRUE(M.release(P));
}

// cudaMalloc's capacity check and cudaMemGetInfo read the device bytes a
// rank holds on a device: counted per (rank, device) as allocations come
// and go, device memory only (pinned and managed memory are not the GPU's
// to run out of), and unchanged by a release that fails.
TEST(DeviceMemory, CountsDeviceBytesPerRankAndDevice) {
  DeviceMemory &M = DeviceMemory::get();
  const int Rank = 41;
  EXPECT_EQ(M.deviceBytes(Rank, 0), 0u);
  void *A = M.allocate(1000, Rank, 0, MemoryKind::Device);
  void *B = M.allocate(24, Rank, 0, MemoryKind::Device);
  void *C = M.allocate(512, Rank, 1, MemoryKind::Device);
  void *D = M.allocate(0, Rank + 1, 0, MemoryKind::Device); // takes 1 byte
  void *Pinned = M.allocate(4096, Rank, 0, MemoryKind::Pinned);
  void *Managed = M.allocate(4096, Rank, 0, MemoryKind::Managed);
  for (void *P : {A, B, C, D, Pinned, Managed})
    ASSERT_NE(P, nullptr);
  EXPECT_EQ(M.deviceBytes(Rank, 0), 1024u);
  EXPECT_EQ(M.deviceBytes(Rank, 1), 512u);
  EXPECT_EQ(M.deviceBytes(Rank + 1, 0), 1u);
  EXPECT_FALSE(M.release(static_cast<char *>(A) + 8)); // not a base
  EXPECT_EQ(M.deviceBytes(Rank, 0), 1024u);
  EXPECT_TRUE(M.release(A));
  EXPECT_EQ(M.deviceBytes(Rank, 0), 24u);
  int Host[4] = {};
  M.registerHost(Host, sizeof Host, Rank);
  EXPECT_EQ(M.deviceBytes(Rank, 0), 24u);
  EXPECT_TRUE(M.unregisterHost(Host));
  for (void *P : {B, C, D, Pinned, Managed})
    EXPECT_TRUE(M.release(P));
  EXPECT_EQ(M.deviceBytes(Rank, 0), 0u);
  EXPECT_EQ(M.deviceBytes(Rank, 1), 0u);
  EXPECT_EQ(M.deviceBytes(Rank + 1, 0), 0u);
}
