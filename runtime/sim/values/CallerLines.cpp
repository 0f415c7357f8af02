//===- CallerLines.cpp - Source lines of the program's calling frames -----===//

#include "CallerLines.h"
#include "ranks/LoadedObjects.h"

#include <nlohmann/json.hpp>

#include <execinfo.h>
#include <spawn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>

extern char **environ;

namespace orrery::sim {

namespace {

/// llvm-symbolizer reading "OBJECT ADDRESS" lines and answering each with
/// one line of JSON.
class Symbolizer {
public:
  bool start(std::string &Why) {
    if (Started)
      return In != nullptr;
    Started = true;
    const char *Env = std::getenv("ORRERY_SYMBOLIZER");
    Path = Env && *Env ? Env : ORRERY_LLVM_SYMBOLIZER;
    int ToChild[2], FromChild[2];
    if (pipe(ToChild) != 0 || pipe(FromChild) != 0) {
      Why = "no pipe for llvm-symbolizer";
      return false;
    }
    posix_spawn_file_actions_t Actions;
    posix_spawn_file_actions_init(&Actions);
    posix_spawn_file_actions_adddup2(&Actions, ToChild[0], 0);
    posix_spawn_file_actions_adddup2(&Actions, FromChild[1], 1);
    posix_spawn_file_actions_addclose(&Actions, ToChild[1]);
    posix_spawn_file_actions_addclose(&Actions, FromChild[0]);
    std::string Style = "--output-style=JSON";
    char *Argv[] = {const_cast<char *>(Path.c_str()),
                    const_cast<char *>(Style.c_str()), nullptr};
    pid_t Pid;
    int Rc = posix_spawn(&Pid, Path.c_str(), &Actions, nullptr, Argv, environ);
    posix_spawn_file_actions_destroy(&Actions);
    close(ToChild[0]);
    close(FromChild[1]);
    if (Rc != 0) {
      close(ToChild[1]);
      close(FromChild[0]);
      Why = "'" + Path +
            "' could not be started (install llvm-22, or set "
            "ORRERY_SYMBOLIZER to an llvm-symbolizer)";
      return false;
    }
    In = fdopen(ToChild[1], "w");
    Out = fdopen(FromChild[0], "r");
    // A symbolizer that dies must not take the simulation with it: writes
    // to its pipe then fail (EPIPE) instead of raising SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    return In && Out;
  }

  /// Whether it still answers (it stops being asked once it does not).
  bool alive() const { return In && Out; }
  /// Once, after it stopped answering: why lines are missing.
  bool died(std::string &Why) {
    if (!Stopped || Told)
      return false;
    Told = true;
    Why = "'" + Path + "' stopped answering (a broken llvm-symbolizer?)";
    return true;
  }

  /// The lines of \p Address in \p Object, innermost inlined call first.
  std::vector<SourceLine> lines(const std::string &Object,
                                unsigned long Address) {
    std::vector<SourceLine> L;
    if (std::fprintf(In, "\"%s\" 0x%lx\n", Object.c_str(), Address) < 0 ||
        std::fflush(In) != 0)
      return stop(L);
    std::string Reply;
    char Buf[4096];
    while (std::fgets(Buf, sizeof Buf, Out)) {
      Reply += Buf;
      if (!Reply.empty() && Reply.back() == '\n')
        break;
    }
    if (Reply.empty())
      return stop(L); // it exited
    nlohmann::json J = nlohmann::json::parse(Reply, nullptr, false);
    if (J.is_discarded() || !J.contains("Symbol") || !J["Symbol"].is_array())
      return L;
    for (const auto &F : J["Symbol"]) {
      std::string File = F.value("FileName", std::string());
      unsigned Line = F.value("Line", 0u);
      if (!File.empty() && Line)
        L.push_back({File, Line});
    }
    return L;
  }

private:
  std::vector<SourceLine> stop(std::vector<SourceLine> &L) {
    std::fclose(In);
    std::fclose(Out);
    In = Out = nullptr;
    Stopped = true;
    return L;
  }

  std::string Path;
  bool Started = false, Stopped = false, Told = false;
  std::FILE *In = nullptr, *Out = nullptr;
};

bool exists(const char *Path) {
  struct stat S;
  return Path && stat(Path, &S) == 0;
}

/// The file to read line tables from for an object \p Loaded: SMPI loads
/// each rank's copy of the program from a temporary file it deletes, so a
/// file that no longer exists is the program orrery-run started
/// (ORRERY_PROGRAM).
std::string objectFile(const char *Loaded) {
  if (exists(Loaded))
    return Loaded;
  const char *Program = std::getenv("ORRERY_PROGRAM");
  return Program && *Program ? Program : "";
}

} // namespace

std::vector<SourceLine> callerLines(std::string &Why) {
  static Symbolizer S;
  // Each code address once: (object, address in it) -> its lines.
  static std::map<const void *, std::vector<SourceLine>> Cache;
  std::vector<SourceLine> Lines;
  if (!S.start(Why) || !S.alive())
    return Lines;
  void *Frames[32];
  int N = backtrace(Frames, 32);
  static const void *Self =
      loadedObjectStart(reinterpret_cast<void *>(&callerLines));
  for (int I = 1; I < N; ++I) {
    // A return address is one past its call: look the call up.
    const void *Pc = static_cast<const char *>(Frames[I]) - 1;
    auto It = Cache.find(Pc);
    if (It == Cache.end()) {
      std::vector<SourceLine> L;
      std::optional<LoadedObject> In =
          S.alive() ? loadedObject(Pc) : std::nullopt;
      if (In && !In->File.empty() && In->Start != Self) {
        std::string Object = objectFile(In->File.c_str());
        if (!Object.empty())
          L = S.lines(Object, static_cast<unsigned long>(
                                  static_cast<const char *>(Pc) -
                                  static_cast<const char *>(In->Start)));
      }
      It = Cache.emplace(Pc, std::move(L)).first;
    }
    Lines.insert(Lines.end(), It->second.begin(), It->second.end());
  }
  S.died(Why);
  return Lines;
}

} // namespace orrery::sim
