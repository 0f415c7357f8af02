//===- StudyFuzzer.cpp - libFuzzer target: the sweep study reader ---------===//
//
// Any bytes given to orrery-sweep's study reader give an expanded study or
// one located error: never a crash, an exception or a hang. An expanded
// study's points have names that are safe directory names and unique, and
// there is at least one point.
//
// The study's relative paths are taken from ORRERY_FUZZ_STUDY_DIR (set at
// build time to the sweep tests' inputs), so seeds from there can reach the
// expansion past their program and machine checks.
//
//===----------------------------------------------------------------------===//

#include "Study.h"

#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

#ifndef ORRERY_FUZZ_STUDY_DIR
#define ORRERY_FUZZ_STUDY_DIR "."
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data,
                                      std::size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  orrery::sweep::Study S;
  std::string Error;
  if (!orrery::sweep::parseStudy(Text, "fuzz.yaml", ORRERY_FUZZ_STUDY_DIR, S,
                                 Error)) {
    if (Error.rfind("fuzz.yaml", 0) != 0)
      std::abort(); // an error that does not name the file
    return 0;
  }
  if (S.Points.empty())
    std::abort(); // a study of no points is an error, not success
  std::set<std::string> Names;
  for (const orrery::sweep::Point &P : S.Points) {
    if (P.Name.empty() || P.Name == "." || P.Name == ".." ||
        P.Name.find_first_of("/\n") != std::string::npos || P.Np <= 0)
      std::abort(); // a name that is not one safe directory
    if (!Names.insert(P.Name).second)
      std::abort(); // two points in one directory
  }
  return 0;
}
