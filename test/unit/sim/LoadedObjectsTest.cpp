//===- LoadedObjectsTest.cpp - The loaded object holding an address -------===//

#include "ranks/LoadedObjects.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

using namespace orrery::sim;

namespace {
int InThisProgram = 0;

/// dladdr's answer, which the sorted-table lookup must give too.
const void *dladdrStart(const void *P) {
  Dl_info Info{};
  return dladdr(P, &Info) ? Info.dli_fbase : nullptr;
}
} // namespace

TEST(LoadedObjects, SameStartAsDladdr) {
  // This program, a shared library (libc) and liborrery-sim itself.
  const void *Addresses[] = {&InThisProgram, dlsym(RTLD_DEFAULT, "strlen"),
                             reinterpret_cast<const void *>(&loadedObject)};
  for (const void *P : Addresses) {
    ASSERT_NE(dladdrStart(P), nullptr);
    EXPECT_EQ(loadedObjectStart(P), dladdrStart(P));
    auto Object = loadedObject(P);
    ASSERT_TRUE(Object);
    EXPECT_EQ(Object->Start, dladdrStart(P));
    EXPECT_FALSE(Object->File.empty());
  }
  // Two objects, two starts.
  EXPECT_NE(loadedObjectStart(&InThisProgram),
            loadedObjectStart(dlsym(RTLD_DEFAULT, "strlen")));
}

TEST(LoadedObjects, HeapIsNoObject) {
  void *P = std::malloc(1 << 20); // an mmap of its own, in no object
  EXPECT_EQ(loadedObjectStart(P), nullptr);
  EXPECT_FALSE(loadedObject(P));
  std::free(P);
}
