#include "orrery/passes/CompilerFlags.h"

#include "gtest/gtest.h"

using namespace orrery;
using Args = std::vector<std::string>;

static Args translate(const Args &In) {
  llvm::Expected<Args> Out = translateNvccCommand(In);
  if (!Out) {
    ADD_FAILURE() << llvm::toString(Out.takeError());
    return {};
  }
  return *Out;
}

TEST(CompilerFlagsTest, RecognizesNvcc) {
  EXPECT_TRUE(isNvccCommand({"/usr/local/cuda/bin/nvcc", "-c", "a.cu"}));
  EXPECT_FALSE(isNvccCommand({"/usr/bin/clang++", "-c", "a.cu"}));
}

TEST(CompilerFlagsTest, TranslatesArchitecturesAndRdc) {
  Args Out =
      translate({"nvcc", "-gencode", "arch=compute_90,code=sm_90",
                 "--generate-code=arch=compute_80,code=[sm_80,compute_80]",
                 "-arch=sm_70", "-rdc=true", "-c", "a.cu"});
  EXPECT_EQ(Out,
            (Args{"clang++", "--cuda-gpu-arch=sm_90", "--cuda-gpu-arch=sm_80",
                  "--cuda-gpu-arch=sm_70", "-fgpu-rdc", "-c", "a.cu"}));
}

// Makefiles write code=\"sm_70,compute_70\": the quotes reach the compiler.
TEST(CompilerFlagsTest, GencodeCodeListMayBeQuoted) {
  Args Out = translate({"nvcc", "-gencode",
                        "arch=compute_70,code=\"sm_70,compute_70\"", "-gencode",
                        "arch=compute_80,code='sm_80'", "-c", "a.cu"});
  EXPECT_EQ(Out, (Args{"clang++", "--cuda-gpu-arch=sm_70",
                       "--cuda-gpu-arch=sm_80", "-c", "a.cu"}));
}

TEST(CompilerFlagsTest, UnpacksXcompilerAndDropsDeviceOnlyFlags) {
  Args Out = translate({"nvcc", "-Xcompiler=-fPIC,-Wall", "-Xcompiler",
                        "-fopenmp", "--expt-relaxed-constexpr",
                        "--expt-extended-lambda", "-lineinfo", "-Xptxas", "-v",
                        "-ccbin", "g++", "--use_fast_math", "-O3", "-x", "cu",
                        "--std=c++17", "-DN=4", "-Iinc", "a.cu"});
  EXPECT_EQ(Out, (Args{"clang++", "-fPIC", "-Wall", "-fopenmp", "-O3", "-x",
                       "cuda", "-std=c++17", "-DN=4", "-Iinc", "a.cu"}));
}

TEST(CompilerFlagsTest, UntranslatableFlagsAreErrors) {
  llvm::Expected<Args> Out =
      translateNvccCommand({"nvcc", "--options-file", "opts.txt", "a.cu"});
  ASSERT_FALSE(bool(Out));
  EXPECT_NE(llvm::toString(Out.takeError()).find("--options-file"),
            std::string::npos);
  llvm::Expected<Args> Missing = translateNvccCommand({"nvcc", "-Xcompiler"});
  ASSERT_FALSE(bool(Missing));
  llvm::consumeError(Missing.takeError());
}

TEST(CompilerFlagsTest, UnknownClangFlagsAreNamed) {
  EXPECT_FALSE(bool(checkClangKnowsFlags(
      {"clang++", "-O2", "-x", "cuda", "--cuda-host-only", "a.cu"})));
  llvm::Error E = checkClangKnowsFlags({"clang++", "--bogus-flag", "a.cu"});
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("--bogus-flag"),
            std::string::npos);
}

TEST(CompilerFlagsTest, AddsHostOnlyParseFlagsForCudaFiles) {
  ParseSettings S{"/rd", "/cuda"};
  Args Cu = addParseFlags({"clang++", "-c", "a.cu"}, "a.cu", S);
  EXPECT_EQ(Cu, (Args{"clang++", "-resource-dir=/rd", "--cuda-host-only",
                      "-Wno-unknown-cuda-version", "--cuda-path=/cuda", "-c",
                      "a.cu"}));
  Args Cpp = addParseFlags({"clang++", "-c", "a.cpp"}, "a.cpp", S);
  EXPECT_EQ(Cpp, (Args{"clang++", "-resource-dir=/rd", "-c", "a.cpp"}));
  // A user's -nocudainc (mock headers) keeps the toolkit out.
  Args Mock = addParseFlags({"clang++", "-nocudainc", "a.cu"}, "a.cu", S);
  EXPECT_EQ(Mock, (Args{"clang++", "-resource-dir=/rd", "--cuda-host-only",
                        "-Wno-unknown-cuda-version", "-nocudainc", "a.cu"}));
}

TEST(CompilerFlagsTest, ResourceDirMustHoldCudaWrappers) {
  llvm::Expected<std::string> Bad = findResourceDir("/nonexistent");
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(llvm::toString(Bad.takeError()).find("cuda_wrappers"),
            std::string::npos);
  llvm::Expected<std::string> Good = findResourceDir("");
  ASSERT_TRUE(bool(Good)) << llvm::toString(Good.takeError());
}
