//===- DeviceResourcesTest.cpp - ptxas -v output and the device command ---===//

#include "orrery/passes/DeviceResources.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace orrery;

static const char *Verbose =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Function properties for _Z6helperd\n"
    "    24 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
    "ptxas info    : Compiling entry function '_Z2tkILi128EEvPf' for "
    "'sm_90'\n"
    "ptxas info    : Function properties for _Z2tkILi128EEvPf\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 10 registers, used 1 barriers, 512 bytes smem, "
    "368 bytes cmem[0]\n"
    "ptxas info    : Compile time = 60.382 ms\n"
    "ptxas info    : Compiling entry function '_Z5heavyPKdPdi' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z5heavyPKdPdi\n"
    "    176 bytes stack frame, 176 bytes spill stores, 172 bytes spill "
    "loads\n"
    "ptxas info    : Used 254 registers, used 0 barriers, 176 bytes "
    "cumulative stack size\n";

TEST(PtxasOutput, ResourcesPerEntry) {
  auto R = parsePtxasVerbose(Verbose, "sm_90");
  ASSERT_EQ(R.size(), 2u); // the device function _Z6helperd is not an entry
  const DeviceResources &T = R.at("_Z2tkILi128EEvPf");
  EXPECT_EQ(T.Arch, "sm_90");
  EXPECT_EQ(T.Registers, 10u);
  EXPECT_EQ(T.StaticSharedBytes, 512u);
  EXPECT_EQ(T.SpillStoreBytes, 0u);
  const DeviceResources &H = R.at("_Z5heavyPKdPdi");
  EXPECT_EQ(H.Registers, 254u);
  EXPECT_EQ(H.StackBytes, 176u);
  EXPECT_EQ(H.SpillStoreBytes, 176u);
  EXPECT_EQ(H.SpillLoadBytes, 172u);
  EXPECT_EQ(H.StaticSharedBytes, 0u);
}

TEST(PtxasOutput, GarbageGivesNothing) {
  EXPECT_TRUE(parsePtxasVerbose("", "sm_90").empty());
  EXPECT_TRUE(parsePtxasVerbose("ptxas fatal : Unknown option\n", "sm_90")
                  .empty());
}

TEST(DeviceCommand, ReplacesOutputDependencyAndHostOnlyFlags) {
  DeviceCompile C;
  C.HostCommand = {"/usr/bin/nvcc-ish", "-resource-dir=/r", "--cuda-host-only",
                   "-x", "cuda", "-MD", "-MF", "a.d", "-c", "a.cu", "-o",
                   "a.o", "--cuda-gpu-arch=sm_80", "-DN=1"};
  C.Arch = "sm_90";
  std::vector<std::string> D = deviceCommand(C, "/llvm/bin/clang++", "/t.ptx");
  std::vector<std::string> Want = {
      "/llvm/bin/clang++", "-resource-dir=/r", "-x", "cuda", "a.cu", "-DN=1",
      "-O3", "--cuda-device-only", "--cuda-gpu-arch=sm_90", "-S", "-w", "-o",
      "/t.ptx"};
  EXPECT_EQ(D, Want);
  C.HostCommand.push_back("-O1");
  D = deviceCommand(C, "clang++", "/t.ptx");
  EXPECT_EQ(std::count(D.begin(), D.end(), "-O3"), 0);
  EXPECT_EQ(std::count(D.begin(), D.end(), "-O1"), 1);
}

TEST(DeviceCommand, ArchAndToolkitFromTheCommand) {
  EXPECT_EQ(archFromCommand({"clang++", "--offload-arch=sm_80"}), "sm_80");
  EXPECT_EQ(archFromCommand({"clang++", "--offload-arch=gfx90a"}), "");
  EXPECT_EQ(cudaPathOf({"clang++", "--cuda-path=/a", "--cuda-path=/b"}, "/c"),
            "/b");
  EXPECT_EQ(cudaPathOf({"clang++"}, "/c"), "/c");
}

TEST(DeviceResources, MissingToolkitIsANote) {
  DeviceCompile C;
  C.HostCommand = {"clang++", "a.cu"};
  C.Arch = "sm_90";
  C.CudaPath = "/nonexistent-toolkit";
  DeviceResourceTable T = deviceResources(C);
  EXPECT_TRUE(T.Kernels.empty());
  EXPECT_EQ(T.Note, "no ptxas at /nonexistent-toolkit/bin/ptxas");
}
