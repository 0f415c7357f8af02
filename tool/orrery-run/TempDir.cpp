//===- TempDir.cpp - A private temporary directory ------------------------===//

#include "TempDir.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace orrery::run {

namespace fs = std::filesystem;

/// Removes PREFIX-* directories of this user whose owner process is gone
/// (killed with SIGKILL, which no cleanup survives). Directories without an
/// owner file, or whose owner runs, are left alone.
static void removeStale(const std::string &Base, const std::string &Prefix) {
  std::error_code EC;
  for (fs::directory_iterator It(Base, EC), End; !EC && It != End;
       It.increment(EC)) {
    std::string Name = It->path().filename().string();
    if (Name.rfind(Prefix + "-", 0) != 0)
      continue;
    struct stat St;
    if (lstat(It->path().c_str(), &St) != 0 || !S_ISDIR(St.st_mode) ||
        St.st_uid != getuid())
      continue;
    std::ifstream Owner(It->path() / "owner");
    long Pid = 0;
    if (!(Owner >> Pid) || Pid <= 0)
      continue;
    if (kill(static_cast<pid_t>(Pid), 0) == 0 || errno != ESRCH)
      continue;
    std::error_code Ignored;
    fs::remove_all(It->path(), Ignored);
  }
}

bool TempDir::create(const std::string &Prefix, std::string &Error) {
  const char *Env = std::getenv("TMPDIR");
  std::string Base = Env && *Env ? Env : "/tmp";
  removeStale(Base, Prefix);
  std::string Template = Base + "/" + Prefix + "-XXXXXX";
  std::vector<char> Buf(Template.begin(), Template.end());
  Buf.push_back('\0');
  if (!mkdtemp(Buf.data())) {
    Error = "cannot create a temporary directory like '" + Template +
            "': " + std::strerror(errno) + " (set TMPDIR to a writable place)";
    return false;
  }
  Path = Buf.data();
  std::ofstream Owner(Path + "/owner");
  Owner << getpid() << "\n";
  return true;
}

TempDir::~TempDir() {
  if (Path.empty() || Kept)
    return;
  std::error_code Ignored;
  std::filesystem::remove_all(Path, Ignored);
}

} // namespace orrery::run
