//===- TempDir.cpp - A private temporary directory ------------------------===//

#include "TempDir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

namespace orrery::run {

bool TempDir::create(const std::string &Prefix, std::string &Error) {
  const char *Base = std::getenv("TMPDIR");
  std::string Template =
      std::string(Base && *Base ? Base : "/tmp") + "/" + Prefix + "-XXXXXX";
  std::vector<char> Buf(Template.begin(), Template.end());
  Buf.push_back('\0');
  if (!mkdtemp(Buf.data())) {
    Error = "cannot create a temporary directory like '" + Template +
            "': " + std::strerror(errno) + " (set TMPDIR to a writable place)";
    return false;
  }
  Path = Buf.data();
  return true;
}

TempDir::~TempDir() {
  if (Path.empty() || Kept)
    return;
  std::error_code Ignored;
  std::filesystem::remove_all(Path, Ignored);
}

} // namespace orrery::run
