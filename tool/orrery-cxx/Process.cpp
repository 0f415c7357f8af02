//===- Process.cpp - orrery-cxx: running commands, temporary files --------===//

#include "Process.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace orrery {
namespace cxx {

int runCommand(const std::vector<std::string> &Argv,
               const std::string &StderrFile, std::string &Error) {
  std::vector<char *> Ptrs;
  for (const std::string &A : Argv)
    Ptrs.push_back(const_cast<char *>(A.c_str()));
  Ptrs.push_back(nullptr);
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  if (!StderrFile.empty())
    posix_spawn_file_actions_addopen(&Actions, STDERR_FILENO,
                                     StderrFile.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t Pid;
  int Err = posix_spawn(&Pid, Argv[0].c_str(), &Actions, nullptr, Ptrs.data(),
                        environ);
  posix_spawn_file_actions_destroy(&Actions);
  if (Err != 0) {
    Error = "cannot run " + Argv[0] + ": " + std::strerror(Err);
    return -1;
  }
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0) {
    if (errno != EINTR) {
      Error = "lost " + Argv[0] + ": " + std::strerror(errno);
      return -1;
    }
  }
  if (WIFEXITED(Status))
    return WEXITSTATUS(Status);
  if (WIFSIGNALED(Status))
    return 128 + WTERMSIG(Status);
  return -1;
}

std::string shellQuote(const std::vector<std::string> &Argv) {
  std::string Out;
  for (const std::string &A : Argv) {
    if (!Out.empty())
      Out += ' ';
    bool Plain = !A.empty() &&
                 A.find_first_not_of(
                     "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
                     "QRSTUVWXYZ0123456789_-+=/.,:@%") == std::string::npos;
    if (Plain) {
      Out += A;
      continue;
    }
    Out += '\'';
    for (char C : A)
      Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
    Out += '\'';
  }
  return Out;
}

bool makeTempDir(const char *Prefix, std::string &Dir, std::string &Error) {
  const char *Tmp = std::getenv("TMPDIR");
  std::string Templ =
      std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/" + Prefix + "-XXXXXX";
  std::vector<char> Buf(Templ.begin(), Templ.end());
  Buf.push_back('\0');
  if (!mkdtemp(Buf.data())) {
    Error = "cannot create a temporary directory like " + Templ + ": " +
            std::strerror(errno) + "; set TMPDIR to a writable directory";
    return false;
  }
  Dir = Buf.data();
  return true;
}

static int removeEntry(const char *Path, const struct stat *, int,
                       struct FTW *) {
  ::remove(Path);
  return 0;
}

void removeTree(const std::string &Dir) {
  nftw(Dir.c_str(), removeEntry, 16, FTW_DEPTH | FTW_PHYS);
}

bool writeFile(const std::string &Path, const std::string &Data) {
  FILE *F = std::fopen(Path.c_str(), "wb");
  if (!F)
    return false;
  bool Ok = std::fwrite(Data.data(), 1, Data.size(), F) == Data.size();
  return std::fclose(F) == 0 && Ok;
}

bool replaceInFile(const std::string &Path, const std::string &From,
                   const std::string &To) {
  std::string Data;
  if (!readFile(Path, Data))
    return false;
  for (size_t P = Data.find(From); P != std::string::npos;
       P = Data.find(From, P + To.size()))
    Data.replace(P, From.size(), To);
  return writeFile(Path, Data);
}

} // namespace cxx
} // namespace orrery
