//===- Runner.cpp - orrery-sweep: running points on this machine ----------===//

#include "Runner.h"
#include "Collect.h"
#include "Layout.h"
#include "Progress.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace orrery::sweep {

namespace {

volatile std::sig_atomic_t Interrupted = 0;

void onSignal(int Sig) { Interrupted = Sig; }

struct Running {
  const Point *P;
  Clock::time_point Start;
};

double availableKiB() {
  std::ifstream IS("/proc/meminfo");
  std::string Key;
  double V;
  std::string Unit;
  while (IS >> Key >> V >> Unit)
    if (Key == "MemAvailable:")
      return V;
  return 0;
}

/// Starts orrery-run for \p P with its output in the point's log.txt.
pid_t start(const std::string &Dir, const Point &P, const std::string &Exe,
            std::string &Error) {
  std::string D = pointDir(Dir, P);
  std::error_code EC;
  fs::create_directories(D, EC);
  for (const char *F : {"report.json", "report.json.part", "exit-status",
                        "report.incomplete.json"})
    fs::remove(D + "/" + F, EC);
  if (!support::writeFileAtomically(D + "/point.json",
                                    pointJson(P).dump(2) + "\n", Error))
    return -1;
  std::string Log = D + "/log.txt";
  int Fd = ::open(Log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0) {
    Error = "cannot create " + Log + ": " + std::strerror(errno);
    return -1;
  }
  std::vector<std::string> Argv = {Exe, "--report", D + "/report.json.part"};
  Argv.insert(Argv.end(), P.RunArgs.begin(), P.RunArgs.end());
  std::vector<char *> CArgv;
  for (auto &A : Argv)
    CArgv.push_back(A.data());
  CArgv.push_back(nullptr);
  pid_t Sweep = ::getpid();
  pid_t Pid = ::fork();
  if (Pid == 0) {
    ::dup2(Fd, 1);
    ::dup2(Fd, 2);
    int Null = ::open("/dev/null", O_RDONLY);
    if (Null >= 0)
      ::dup2(Null, 0);
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    ::signal(SIGHUP, SIG_DFL);
    ::signal(SIGQUIT, SIG_DFL);
    // If the sweep dies, SIGKILL included, its points stop with it rather
    // than run on beside a rerun.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != Sweep)
      ::_exit(128 + SIGTERM);
    ::execv(Exe.c_str(), CArgv.data());
    std::string Msg = "orrery-sweep: cannot start " + Exe + ": " +
                      std::strerror(errno) +
                      "; pass the right one with --orrery-run PATH\n";
    (void)!::write(2, Msg.data(), Msg.size());
    ::_exit(127);
  }
  ::close(Fd);
  if (Pid < 0)
    Error = std::string("fork failed: ") + std::strerror(errno);
  return Pid;
}

/// Files the result of a finished point; returns true when it is done.
bool settle(const std::string &Dir, const Point &P, int Status,
            std::string &Why) {
  std::string D = pointDir(Dir, P), Part = D + "/report.json.part";
  std::error_code EC;
  bool HavePart = fs::exists(Part);
  bool Ok = Status == 0 && HavePart;
  if (Ok) {
    std::ifstream IS(Part);
    nlohmann::json J = nlohmann::json::parse(IS, nullptr, false);
    if (J.is_discarded() || !J.is_object() ||
        J.value("completed", true) == false) {
      Ok = false;
      Why = "its report is incomplete";
    }
  } else if (Status == 0) {
    Why = "no report was written";
  } else if (Status > 128) {
    Why = "killed by signal " + std::to_string(Status - 128);
  } else {
    Why = "exit status " + std::to_string(Status);
  }
  if (Ok) {
    fs::rename(Part, D + "/report.json", EC);
    Ok = !EC;
    if (EC)
      Why = "cannot rename " + Part + ": " + EC.message();
  } else if (HavePart) {
    fs::rename(Part, D + "/report.incomplete.json", EC);
  }
  std::string Error;
  support::writeFileAtomically(
      D + "/exit-status", std::to_string(Ok ? 0 : (Status ? Status : 1)) + "\n",
      Error);
  return Ok;
}

} // namespace

unsigned defaultJobs(unsigned Cores, double AvailableKiB, long SmallRssKiB,
                     int SmallNp, int MaxNp) {
  Cores = std::max(1u, Cores);
  if (SmallRssKiB <= 0 || SmallNp <= 0 || AvailableKiB <= 0)
    return Cores;
  // Memory grows with the ranks simulated: scale the first point's peak.
  double Need = double(SmallRssKiB) * std::max(1.0, double(MaxNp) / SmallNp);
  double Fit = 0.8 * AvailableKiB / Need;
  return static_cast<unsigned>(
      std::clamp(Fit, 1.0, static_cast<double>(Cores)));
}

int runLocal(const std::string &Dir, const Study &S, const RunnerOptions &O,
             std::ostream &Out, std::ostream &Err) {
  std::string Error;
  std::error_code EC;
  fs::create_directories(Dir + "/points", EC);
  if (EC) {
    Err << "orrery-sweep: error: cannot create " << Dir << "/points ("
        << EC.message() << "); choose another -o DIR\n";
    return 1;
  }
  if (!writeSweepJson(Dir, S, Error)) {
    Err << "orrery-sweep: error: " << Error << "\n";
    return 1;
  }
  std::deque<const Point *> Todo;
  std::size_t AlreadyDone = 0;
  for (const auto &P : S.Points) {
    if (pointState(Dir, P) == State::Done)
      ++AlreadyDone;
    else
      Todo.push_back(&P);
  }
  Out << "orrery-sweep: " << S.Points.size() << " points, " << AlreadyDone
      << " already done, " << Todo.size() << " to run\n";

  unsigned Cores = std::max(1u, std::thread::hardware_concurrency());
  unsigned Jobs = O.Jobs ? O.Jobs : Cores;
  bool Probe = O.Jobs == 0 && Todo.size() > 1;
  int MaxNp = 0;
  for (const Point *P : Todo)
    MaxNp = std::max(MaxNp, P->Np);
  if (Probe) {
    // The smallest point runs alone first; its memory sets the job count.
    auto Small = std::min_element(
        Todo.begin(), Todo.end(),
        [](const Point *A, const Point *B) { return A->Np < B->Np; });
    const Point *First = *Small;
    Todo.erase(Small);
    Todo.push_front(First);
    Jobs = 1;
  }

  struct sigaction SA {};
  SA.sa_handler = onSignal;
  sigemptyset(&SA.sa_mask);
  for (int Sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
    sigaction(Sig, &SA, nullptr);

  Progress Prog(Out, O.Terminal, S.Points.size(), AlreadyDone, Jobs);
  std::map<pid_t, Running> Live;
  std::vector<std::string> Failures;
  auto LastDraw = Clock::now();
  while ((!Todo.empty() || !Live.empty()) && !Interrupted) {
    while (!Todo.empty() && Live.size() < Jobs && !Interrupted) {
      const Point *P = Todo.front();
      Todo.pop_front();
      pid_t Pid = start(Dir, *P, O.OrreryRun, Error);
      if (Pid < 0) {
        Err << "orrery-sweep: error: " << P->Name << ": " << Error << "\n";
        Prog.finished(false, 0);
        Failures.push_back(P->Name);
        continue;
      }
      Live[Pid] = {P, Clock::now()};
      Prog.started();
      Prog.draw();
    }
    int WStatus = 0;
    struct rusage Usage {};
    pid_t Pid = ::wait4(-1, &WStatus, WNOHANG, &Usage);
    if (Pid <= 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (O.Terminal && Clock::now() - LastDraw > std::chrono::seconds(1)) {
        Prog.draw();
        LastDraw = Clock::now();
      }
      continue;
    }
    auto It = Live.find(Pid);
    if (It == Live.end())
      continue;
    const Point &P = *It->second.P;
    double Seconds =
        std::chrono::duration<double>(Clock::now() - It->second.Start).count();
    Live.erase(It);
    int Status = WIFEXITED(WStatus)     ? WEXITSTATUS(WStatus)
                 : WIFSIGNALED(WStatus) ? 128 + WTERMSIG(WStatus)
                                        : 1;
    if (Interrupted)
      break; // filed below as interrupted
    std::string Why;
    bool Ok = settle(Dir, P, Status, Why);
    Prog.finished(Ok, Seconds);
    if (Ok) {
      Prog.draw("done   " + P.Name + " (" + formatDuration(Seconds) + ")");
    } else {
      Failures.push_back(P.Name);
      Prog.draw("FAILED " + P.Name + ": " + Why + "; log: " + pointDir(Dir, P) +
                "/log.txt");
    }
    if (Probe) {
      Probe = false;
      Jobs = defaultJobs(Cores, availableKiB(), Usage.ru_maxrss, P.Np, MaxNp);
      Prog.setJobs(Jobs);
      if (!O.Terminal)
        Out << "orrery-sweep: running " << Jobs << " at a time (" << Cores
            << " cores; the first point, " << P.Np << " ranks, peaked at "
            << Usage.ru_maxrss / 1024 << " MiB)\n";
    }
  }

  if (Interrupted) {
    int Sig = Interrupted;
    for (const auto &[Pid, R] : Live)
      ::kill(Pid, SIGTERM);
    while (!Live.empty()) {
      int WStatus;
      pid_t Pid = ::waitpid(-1, &WStatus, 0);
      if (Pid < 0 && errno != EINTR)
        break;
      auto It = Live.find(Pid);
      if (It == Live.end())
        continue;
      fs::remove(pointDir(Dir, *It->second.P) + "/report.json.part", EC);
      Live.erase(It);
    }
    Prog.finish();
    Err << "orrery-sweep: interrupted by signal " << Sig
        << "; points not finished are run again by the same command\n";
    return 128 + Sig;
  }
  Prog.finish();

  CollectResult CR;
  if (!collect(Dir, S, CR, Error)) {
    Err << "orrery-sweep: error: " << Error << "\n";
    return 1;
  }
  for (const auto &Pr : CR.Problems)
    Err << "orrery-sweep: warning: " << Pr << "\n";
  Out << "orrery-sweep: " << Prog.done() << " of " << S.Points.size()
      << " points done, " << Failures.size() << " failed; table: " << Dir
      << "/results.csv (" << CR.Rows << " rows)\n";
  if (!Failures.empty()) {
    Err << "orrery-sweep: failed points (rerun the same command to retry "
           "them):\n";
    for (const auto &F : Failures)
      Err << "  " << F << ": log " << Dir << "/points/" << F << "/log.txt\n";
    return 1;
  }
  return 0;
}

} // namespace orrery::sweep
