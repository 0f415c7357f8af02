#include "orrery/passes/NvccFlags.h"

#include "gtest/gtest.h"

using namespace orrery;
using Args = std::vector<std::string>;

TEST(NvccFlagsTest, ClangCommandLinesComeBackUnchanged) {
  Args In{"-O2",
          "-Werror",
          "-Werror=return-type",
          "-x",
          "cuda",
          "-std=c++17",
          "--cuda-gpu-arch=sm_90",
          "-I",
          "inc",
          "-c",
          "a.cu",
          "-o",
          "a.o"};
  NvccTranslation T = translateNvccFlags(In);
  EXPECT_TRUE(T.Error.empty());
  EXPECT_EQ(T.Args, In);
  EXPECT_TRUE(T.Dropped.empty());
}

TEST(NvccFlagsTest, NvccWerrorTakesAListClangsDoesNot) {
  NvccTranslation T = translateNvccFlags(
      {"-Werror", "cross-execution-space-call,reorder", "-Werror", "a.cu"});
  EXPECT_EQ(T.Args, (Args{"-Werror", "a.cu"}));
  EXPECT_EQ(T.Dropped, (Args{"-Werror cross-execution-space-call,reorder"}));
}

TEST(NvccFlagsTest, DroppedFlagsAreReportedWithTheirValues) {
  NvccTranslation T = translateNvccFlags(
      {"-lineinfo", "-ccbin", "g++", "-Xptxas=-v", "-O3", "a.cu"});
  EXPECT_EQ(T.Args, (Args{"-O3", "a.cu"}));
  EXPECT_EQ(T.Dropped, (Args{"-lineinfo", "-ccbin g++", "-Xptxas=-v"}));
}

TEST(NvccFlagsTest, CompilerOptionsSplitOnCommasAndSpaces) {
  NvccTranslation T =
      translateNvccFlags({"--compiler-options", "-O2 -Wall,-fopenmp"});
  EXPECT_EQ(T.Args, (Args{"-O2", "-Wall", "-fopenmp"}));
}

TEST(NvccFlagsTest, QuotedCompilerOptionsAreOneOptionWithoutQuotes) {
  // A Makefile's -Xcompiler \"-Wl,-rpath,DIR\" (gpu-benches): the shell
  // passes the quotes, nvcc keeps the commas and removes the quotes.
  NvccTranslation T = translateNvccFlags(
      {"-Xcompiler", "\"-Wl,-rpath,/usr/local/cuda/lib64/\"", "-Xcompiler",
       "'-DA=1 2',-Wall"});
  EXPECT_EQ(T.Args, (Args{"-Wl,-rpath,/usr/local/cuda/lib64/", "-DA=1 2",
                          "-Wall"}));
}

TEST(NvccFlagsTest, LongFormsAndDeviceLink) {
  NvccTranslation T = translateNvccFlags(
      {"--optimize", "3", "--library", "m", "--library-path=/l", "--shared",
       "--linker-options", "-z,defs", "-dlink", "a.o"});
  EXPECT_EQ(T.Args,
            (Args{"-O3", "-lm", "-L/l", "-shared", "-Wl,-z,defs", "a.o"}));
  EXPECT_TRUE(T.DeviceLink);
}

TEST(NvccFlagsTest, NvccOnlyModesAreRefusedByName) {
  for (const char *F : {"-lib", "-ptx", "--options-file"}) {
    NvccTranslation T = translateNvccFlags({F, "x"});
    EXPECT_NE(T.Error.find(F), std::string::npos) << F;
  }
}
