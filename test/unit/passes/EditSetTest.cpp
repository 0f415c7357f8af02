#include "orrery/passes/EditSet.h"

#include "gtest/gtest.h"

using namespace orrery;

static std::string applied(const EditSet &E, llvm::StringRef Buffer) {
  llvm::Expected<std::string> Out = E.apply(Buffer);
  if (!Out) {
    ADD_FAILURE() << llvm::toString(Out.takeError());
    return "";
  }
  return *Out;
}

TEST(EditSetTest, WrapsKeepTheOriginalText) {
  EditSet E;
  ASSERT_FALSE(bool(E.wrap(2, 5, "[", "]")));
  EXPECT_EQ(applied(E, "a f(x) b"), "a [f(x]) b");
}

TEST(EditSetTest, NestedWrapsComposeOuterFirst) {
  // CHECK(g(h())): both calls start or end at shared offsets in some codes;
  // here g(h()) spans [0, 6) and h() spans [2, 5).
  EditSet E;
  ASSERT_FALSE(bool(E.wrap(2, 5, "<", ">")));
  ASSERT_FALSE(bool(E.wrap(0, 6, "{", "}")));
  EXPECT_EQ(applied(E, "g(h())"), "{g(<h()>)}");
}

TEST(EditSetTest, SharedBoundariesNestCorrectly) {
  // Two wraps starting at the same offset: the longer one is outside.
  EditSet E;
  ASSERT_FALSE(bool(E.wrap(0, 3, "(", ")")));
  ASSERT_FALSE(bool(E.wrap(0, 5, "[", "]")));
  EXPECT_EQ(applied(E, "abcde"), "[(abc)de]");
  // Two wraps ending at the same offset: the shorter one closes first.
  EditSet F;
  ASSERT_FALSE(bool(F.wrap(0, 5, "[", "]")));
  ASSERT_FALSE(bool(F.wrap(2, 5, "(", ")")));
  EXPECT_EQ(applied(F, "abcde"), "[ab(cde)]");
}

TEST(EditSetTest, IdenticalWrapsAreRecordedOnce) {
  EditSet E;
  ASSERT_FALSE(bool(E.wrap(1, 2, "<", ">")));
  ASSERT_FALSE(bool(E.wrap(1, 2, "<", ">")));
  EXPECT_EQ(E.size(), 1u);
  EXPECT_EQ(applied(E, "abc"), "a<b>c");
}

TEST(EditSetTest, ConflictsAreErrors) {
  EditSet E;
  ASSERT_FALSE(bool(E.wrap(1, 4, "<", ">")));
  llvm::Error Different = E.wrap(1, 4, "(", ")");
  EXPECT_TRUE(bool(Different));
  llvm::consumeError(std::move(Different));
  llvm::Error Crossing = E.wrap(2, 6, "(", ")");
  EXPECT_TRUE(bool(Crossing));
  llvm::consumeError(std::move(Crossing));
}

TEST(EditSetTest, HeadComesFirstAndRangePastEndFails) {
  EditSet E;
  E.setHead("H\n");
  ASSERT_FALSE(bool(E.wrap(0, 1, "<", ">")));
  EXPECT_EQ(applied(E, "ab"), "H\n<a>b");
  EditSet Bad;
  ASSERT_FALSE(bool(Bad.wrap(0, 10, "<", ">")));
  llvm::Expected<std::string> Out = Bad.apply("ab");
  EXPECT_FALSE(bool(Out));
  llvm::consumeError(Out.takeError());
}

TEST(EditSetTest, InsertionsGoBetweenClosingAndOpening) {
  EditSet E;
  ASSERT_FALSE(bool(E.wrap(0, 2, "(", ")")));
  ASSERT_FALSE(bool(E.wrap(2, 4, "[", "]")));
  E.insert(2, "A");
  E.insert(2, "B");
  EXPECT_EQ(applied(E, "abcd"), "(ab)AB[cd]");
}
