//===- NvccMacrosTest.cpp - Renaming nvcc's macros in user files ----------===//

#include "orrery/passes/NvccMacros.h"

#include <gtest/gtest.h>

using orrery::renameNvccMacros;

namespace {

std::string rename(const std::string &Text, unsigned &Count) {
  return renameNvccMacros(Text, Count);
}

} // namespace

TEST(NvccMacros, RenamedInDirectivesAndCode) {
  unsigned N = 0;
  EXPECT_EQ(rename("#ifdef __NVCC__\n#define X 1\n#endif\n", N),
            "#ifdef __ORRERY_NVCC__\n#define X 1\n#endif\n");
  EXPECT_EQ(N, 1u);
  EXPECT_EQ(rename("# if defined(__NVCC__) && __CUDACC_VER_MAJOR__ >= 12\n", N),
            "# if defined(__ORRERY_NVCC__) && __ORRERY_CUDACC_VER_MAJOR__ >= "
            "12\n");
  EXPECT_EQ(N, 2u);
  EXPECT_EQ(rename("int v = __CUDACC_VER_MINOR__;", N),
            "int v = __ORRERY_CUDACC_VER_MINOR__;");
}

TEST(NvccMacros, NotInCommentsStringsOrLongerNames) {
  unsigned N = 0;
  std::string Text = "// __NVCC__\n"
                     "/* __NVCC__\n __NVCC__ */\n"
                     "const char *s = \"__NVCC__ \\\" __NVCC__\";\n"
                     "char c = '_'; int __NVCC__X = 1'000;\n"
                     "int MY__NVCC__ = 0;\n";
  EXPECT_EQ(rename(Text, N), Text);
  EXPECT_EQ(N, 0u);
  // After the comment, code again: line numbers unchanged.
  EXPECT_EQ(rename("/* a */ __NVCC__\n// b\n__NVCC__", N),
            "/* a */ __ORRERY_NVCC__\n// b\n__ORRERY_NVCC__");
  EXPECT_EQ(N, 2u);
}

TEST(NvccMacros, UntouchedWithoutTheNames) {
  unsigned N = 7;
  EXPECT_EQ(rename("#ifdef __CUDACC__\n#endif\n", N),
            "#ifdef __CUDACC__\n#endif\n");
  EXPECT_EQ(N, 0u);
}
