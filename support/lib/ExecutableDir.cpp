//===- ExecutableDir.cpp - Where the running program lives ----------------===//

#include "orrery/support/ExecutableDir.h"

#include <filesystem>

namespace orrery::support {

std::string executableDir() {
  std::error_code EC;
  std::filesystem::path Exe =
      std::filesystem::read_symlink("/proc/self/exe", EC);
  return EC ? std::string() : Exe.parent_path().string();
}

} // namespace orrery::support
