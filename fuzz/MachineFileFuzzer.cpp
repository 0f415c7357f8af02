//===- MachineFileFuzzer.cpp - libFuzzer target: the machine-file reader
//---===//
//
// Any bytes given to the machine-file reader give a parsed file or located
// errors: never a crash, an exception or a hang. Each error names the file.
//
//===----------------------------------------------------------------------===//

#include "orrery/models/MachineFile.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data,
                                      std::size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  orrery::models::ParsedFile F =
      orrery::models::parseMachineText(Text, "fuzz.yaml");
  for (const orrery::models::Diagnostic &D : F.Errors)
    if (D.str().rfind("fuzz.yaml", 0) != 0)
      std::abort(); // an error that does not name the file
  return 0;
}
