//===- SweepDir.cpp - orrery-sweep: which directories a sweep may write ---===//

#include "SweepDir.h"
#include "Layout.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/file.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace orrery::sweep {

SweepDirLock::~SweepDirLock() {
  if (Fd >= 0)
    ::close(Fd);
}

namespace {

/// True if \p Dir/sweep.json was written by orrery-sweep.
bool hasSweepJson(const std::string &Dir) {
  std::string Text;
  if (!readFile(Dir + "/sweep.json", Text))
    return false;
  nlohmann::json J = nlohmann::json::parse(Text, nullptr, false);
  return !J.is_discarded() && J.is_object() && J.contains("schema") &&
         J["schema"].is_string() &&
         J["schema"].get<std::string>().rfind("orrery-sweep/", 0) == 0;
}

/// True if \p Dir holds nothing but a lock a sweep left.
bool emptyButLock(const std::string &Dir) {
  std::error_code EC;
  for (const auto &E : fs::directory_iterator(Dir, EC))
    if (E.path().filename() != ".lock")
      return false;
  return !EC;
}

} // namespace

bool lockSweepDir(const std::string &Dir, SweepDirLock &Lock,
                  std::string &Error) {
  std::string Path = Dir + "/.lock";
  int Fd =
      ::open(Path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (Fd < 0) {
    Error = Path + ": cannot open it (" + std::strerror(errno) +
            "); check the directory's permissions";
    return false;
  }
  if (::flock(Fd, LOCK_EX | LOCK_NB) != 0) {
    // The holder wrote its pid; named only while such a process lives (the
    // lock may be held by another program that wrote nothing).
    char Buf[32] = {0};
    ::ssize_t N = ::pread(Fd, Buf, sizeof Buf - 1, 0);
    ::close(Fd);
    long Pid = N > 0 ? std::strtol(Buf, nullptr, 10) : 0;
    std::string Who;
    if (Pid > 0 && (::kill(static_cast<pid_t>(Pid), 0) == 0 || errno == EPERM))
      Who = " (pid " + std::to_string(Pid) + ")";
    Error = "another orrery-sweep" + Who + " is running in " + Dir +
            " (it holds " + Path +
            "); wait for it to end, or stop it, then run again";
    return false;
  }
  std::string Mine = std::to_string(::getpid()) + "\n";
  if (::ftruncate(Fd, 0) != 0 ||
      ::pwrite(Fd, Mine.data(), Mine.size(), 0) < 0) {
    // The lock holds without the pid; only the message loses it.
  }
  Lock.Fd = Fd;
  return true;
}

bool claimSweepDir(const std::string &Dir, const std::string &StudyFile,
                   SweepDirLock &Lock, std::string &Error) {
  std::error_code EC;
  fs::file_status St = fs::symlink_status(Dir, EC);
  if (fs::exists(St) && !fs::is_directory(fs::status(Dir, EC))) {
    Error = Dir + " exists and is not a directory; give -o a new directory";
    return false;
  }
  if (!fs::exists(St)) {
    if (!fs::create_directories(Dir, EC)) {
      Error = Dir + ": cannot create it (" + EC.message() + ")";
      return false;
    }
  } else if (!emptyButLock(Dir) && !hasSweepJson(Dir)) {
    Error = Dir + " is not empty and holds no sweep.json of orrery-sweep: "
                  "a sweep writes sweep.json, results.csv and points/ there, "
                  "replacing what is there; give -o a new or empty directory";
    return false;
  }
  if (fs::equivalent(fs::absolute(StudyFile).parent_path(), Dir, EC) &&
      fs::absolute(StudyFile).filename() == "sweep.json") {
    Error = StudyFile + " is the sweep.json the sweep would write in " + Dir +
            "; rename the study or give -o another directory";
    return false;
  }
  return lockSweepDir(Dir, Lock, Error);
}

} // namespace orrery::sweep
