//===- TempDir.h - A private temporary directory ----------------*- C++ -*-===//

#ifndef ORRERY_TOOL_RUN_TEMPDIR_H
#define ORRERY_TOOL_RUN_TEMPDIR_H

#include <string>

namespace orrery::run {

/// A directory under $TMPDIR (or /tmp), removed with its contents when the
/// object is destroyed unless keep() was called. It holds an `owner` file
/// with the creating process's pid: a directory left by a process killed
/// with SIGKILL is removed by the next create() with the same prefix.
class TempDir {
public:
  TempDir() = default;
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  ~TempDir();

  /// Creates the directory; false with \p Error on failure.
  bool create(const std::string &Prefix, std::string &Error);
  const std::string &path() const { return Path; }
  std::string file(const std::string &Name) const { return Path + "/" + Name; }
  void keep() { Kept = true; }

private:
  std::string Path;
  bool Kept = false;
};

} // namespace orrery::run

#endif // ORRERY_TOOL_RUN_TEMPDIR_H
