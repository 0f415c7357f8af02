#include "orrery/passes/SourceFixes.h"

#include "gtest/gtest.h"

using namespace orrery;

static std::string fix(llvm::StringRef S, size_t ExpectedFixes) {
  std::vector<SourceFix> Fixes;
  std::string Out = fixBracedLaunchGeometry(S, Fixes);
  EXPECT_EQ(Fixes.size(), ExpectedFixes) << S.str();
  return Out;
}

TEST(SourceFixesTest, BracedBlockBecomesDim3) {
  EXPECT_EQ(fix("k<<<grid, {32, 8, 1}, 0, s>>>(x);", 1),
            "k<<<grid, dim3{32, 8, 1}, 0, s>>>(x);");
}

TEST(SourceFixesTest, BracedGridAndBlock) {
  EXPECT_EQ(fix("k<<<{2, 2}, {32, 8}>>>(x);", 2),
            "k<<<dim3{2, 2}, dim3{32, 8}>>>(x);");
}

TEST(SourceFixesTest, LeavesOtherArgumentsAlone) {
  // Only grid and block are dim3; braces elsewhere are not touched.
  EXPECT_EQ(fix("k<<<g, b, f({1}), s>>>(x);", 0), "k<<<g, b, f({1}), s>>>(x);");
  EXPECT_EQ(fix("k<<<dim3{1, 1}, b>>>(x);", 0), "k<<<dim3{1, 1}, b>>>(x);");
  EXPECT_EQ(fix("k<<<g(a, {1}), b>>>(x);", 0), "k<<<g(a, {1}), b>>>(x);");
}

TEST(SourceFixesTest, IgnoresCommentsAndStrings) {
  EXPECT_EQ(fix("// k<<<g, {1}>>>(x);\nconst char *s = \"<<<g, {1}>>>\";", 0),
            "// k<<<g, {1}>>>(x);\nconst char *s = \"<<<g, {1}>>>\";");
  EXPECT_EQ(fix("k<<<g, /* block */ {32, 1}>>>(x);", 1),
            "k<<<g, /* block */ dim3{32, 1}>>>(x);");
}
