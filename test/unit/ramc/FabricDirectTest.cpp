//===- FabricDirectTest.cpp - RAMC's own copies into a peer's memory ------===//
//
// Fabric::writeDirect against this process itself (a peer on this host as
// far as process_vm_writev is concerned): the bytes land, an address the
// kernel cannot reach hands the write back to the provider, and a process
// that does not exist is an error.
//
//===----------------------------------------------------------------------===//
#include "fabric.h"

#include <cerrno>
#include <cstring>
#include <gtest/gtest.h>
#include <unistd.h>
#include <vector>

using namespace ramc;

namespace {

class FabricDirect : public ::testing::Test {
protected:
  void SetUp() override {
    TransportOptions O;
    O.Provider = "shm";
    std::string Err;
    if (!F.open(O, Err))
      GTEST_SKIP() << "no shm provider here: " << Err;
    if (!F.writesDirectly())
      GTEST_SKIP() << "shm without virtual addresses here";
  }
  RmaOp op(const void *From, void *To, size_t Len) {
    RmaOp Op;
    Op.Local = From;
    Op.Len = Len;
    Op.RAddr = reinterpret_cast<uint64_t>(To);
    return Op;
  }
  uint32_t self() const { return static_cast<uint32_t>(getpid()); }
  Fabric F;
};

} // namespace

TEST_F(FabricDirect, BytesLandBeforeItReturns) {
  std::vector<uint8_t> From(3 * 4096 + 5), To(From.size());
  for (size_t I = 0; I < From.size(); ++I)
    From[I] = static_cast<uint8_t>(I * 13 + 7);
  ASSERT_EQ(F.writeDirect(op(From.data(), To.data(), From.size()), self()), 0);
  EXPECT_EQ(std::memcmp(From.data(), To.data(), From.size()), 0);
}

TEST_F(FabricDirect, AnUnreachableAddressGoesBackToTheProvider) {
  uint8_t From[64] = {1};
  // In page 0, below vm.mmap_min_addr (at least 4096): never mapped.
  void *Nowhere = reinterpret_cast<void *>(uintptr_t(64));
  EXPECT_EQ(F.writeDirect(op(From, Nowhere, sizeof(From)), self()),
            kTransportUnsupported);
  EXPECT_TRUE(F.writesDirectly()); // a bad address says nothing of the kernel
}

TEST_F(FabricDirect, AProcessThatDoesNotExistIsAnError) {
  uint8_t From[64] = {1}, To[64] = {};
  // Above the largest PID Linux hands out (pid_max is at most 2^22).
  EXPECT_EQ(F.writeDirect(op(From, To, sizeof(From)), 1u << 30), -ESRCH);
}
