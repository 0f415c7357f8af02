//===- ReadFile.cpp - A whole file into memory ----------------------------===//

#include "orrery/support/ReadFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace orrery::support {

bool readFile(const std::string &Path, std::string &Out, std::string *Reason) {
  FILE *F = std::fopen(Path.c_str(), "rb");
  if (!F) {
    if (Reason)
      *Reason = std::strerror(errno);
    return false;
  }
  Out.clear();
  char Buf[65536];
  size_t N;
  while ((N = std::fread(Buf, 1, sizeof Buf, F)) > 0)
    Out.append(Buf, N);
  // A directory opens but does not read.
  bool Ok = !std::ferror(F);
  if (!Ok && Reason)
    *Reason = std::strerror(errno);
  std::fclose(F);
  return Ok;
}

} // namespace orrery::support
