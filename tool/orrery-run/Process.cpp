//===- Process.cpp - Running smpirun --------------------------------------===//

#include "Process.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace orrery::run {

namespace {

volatile sig_atomic_t ChildPid = 0;
/// The last signal passed on: what ended the run, whatever smpirun turns it
/// into (it stops the simulation with SIGTERM on any of them).
volatile sig_atomic_t Received = 0;

void forwardSignal(int Sig) {
  Received = Sig;
  if (ChildPid > 0)
    kill(static_cast<pid_t>(ChildPid), Sig);
}

const int ForwardedSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

} // namespace

std::string shellQuote(const std::string &S) {
  if (!S.empty() &&
      S.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                          "0123456789_-+=/.,:@%") == std::string::npos)
    return S;
  std::string Out = "'";
  for (char C : S) {
    if (C == '\'')
      Out += "'\\''";
    else
      Out += C;
  }
  return Out + "'";
}

void printCommand(const Command &C, std::ostream &OS) {
  for (const auto &[Name, Value] : C.Env) {
    if (Value.empty())
      OS << "unset " << Name << "\n";
    else
      OS << Name << "=" << shellQuote(Value) << "\n";
  }
  std::string Line;
  for (const std::string &A : C.Argv)
    Line += (Line.empty() ? "" : " ") + shellQuote(A);
  OS << Line << "\n";
}

namespace {

void restoreSignals(const struct sigaction (&Old)[4]) {
  for (int I = 0; I < 4; ++I)
    sigaction(ForwardedSignals[I], &Old[I], nullptr);
}

/// In the forked child: set the environment and exec, or report errno on
/// \p ErrorFd and exit.
[[noreturn]] void execChild(const Command &C, std::vector<char *> &Argv,
                            int ErrorFd) {
  for (const auto &[Name, Value] : C.Env) {
    if (Value.empty())
      unsetenv(Name.c_str());
    else
      setenv(Name.c_str(), Value.c_str(), 1);
  }
  execvp(Argv[0], Argv.data());
  int Errno = errno;
  ssize_t Ignored = write(ErrorFd, &Errno, sizeof(Errno));
  (void)Ignored;
  _exit(127);
}

/// Waits for descendants left behind by smpirun (the simulation finishing
/// its report after smpirun died of a signal), at most OrphanWaitSeconds,
/// then kills them.
void reapOrphans() {
  constexpr int OrphanWaitSeconds = 60;
  for (int Tick = 0; Tick < OrphanWaitSeconds * 50; ++Tick) {
    int St;
    pid_t P = waitpid(-1, &St, WNOHANG);
    if (P < 0 && errno == ECHILD)
      return;
    if (P == 0)
      usleep(20000);
  }
  // Still running: stop them rather than leave them unobserved.
  char Path[64];
  std::snprintf(Path, sizeof Path, "/proc/self/task/%d/children",
                static_cast<int>(getpid()));
  if (FILE *F = std::fopen(Path, "r")) {
    int C;
    while (std::fscanf(F, "%d", &C) == 1)
      kill(C, SIGKILL);
    std::fclose(F);
  }
  while (waitpid(-1, nullptr, 0) > 0 || errno == EINTR) {
  }
}

} // namespace

int runCommand(const Command &C, std::string &Error) {
  std::vector<char *> Argv;
  for (const std::string &A : C.Argv)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);

  // A successful exec closes this pipe; a failed one writes its errno.
  int ExecPipe[2];
  if (pipe2(ExecPipe, O_CLOEXEC) != 0) {
    Error = "cannot start '" + C.Argv[0] + "': " + std::strerror(errno);
    return -1;
  }
  Received = 0;
  struct sigaction Forward = {}, Old[4];
  Forward.sa_handler = forwardSignal;
  sigemptyset(&Forward.sa_mask);
  // A signal ignored on entry (nohup's SIGHUP, SIGINT for a background
  // job) stays ignored, here and in the simulation, as a shell would have it.
  for (int I = 0; I < 4; ++I) {
    sigaction(ForwardedSignals[I], nullptr, &Old[I]);
    if (Old[I].sa_handler != SIG_IGN)
      sigaction(ForwardedSignals[I], &Forward, nullptr);
  }

  // smpirun runs the simulation (smpimain) as its child; when a signal ends
  // smpirun first, the simulation is still writing its partial report.
  // As a subreaper, orrery-run inherits it and waits for it below.
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  pid_t Parent = getpid();
  pid_t Pid = fork();
  if (Pid == 0) {
    close(ExecPipe[0]);
    restoreSignals(Old);
    // orrery-run ignores SIGPIPE; the simulation must not inherit that.
    signal(SIGPIPE, SIG_DFL);
    // If orrery-run is killed (SIGKILL included), smpirun gets SIGTERM and
    // stops the simulation instead of running on unobserved.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != Parent)
      _exit(128 + SIGTERM);
    execChild(C, Argv, ExecPipe[1]);
  }
  int ForkErrno = errno;
  close(ExecPipe[1]);
  if (Pid < 0) {
    close(ExecPipe[0]);
    restoreSignals(Old);
    Error = "cannot start '" + C.Argv[0] + "': " + std::strerror(ForkErrno);
    return -1;
  }
  ChildPid = Pid;
  int ExecErrno = 0;
  ssize_t Got;
  while ((Got = read(ExecPipe[0], &ExecErrno, sizeof(ExecErrno))) < 0 &&
         errno == EINTR) {
  }
  close(ExecPipe[0]);

  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  reapOrphans();
  ChildPid = 0;
  restoreSignals(Old);
  if (Got == static_cast<ssize_t>(sizeof(ExecErrno))) {
    Error = "cannot run '" + C.Argv[0] + "': " + std::strerror(ExecErrno);
    return -1;
  }
  // Stopped after a signal the user sent: that signal, not smpirun's SIGTERM
  // to the simulation (a ^C reads as signal 2).
  if (Received && (WIFSIGNALED(Status) || WEXITSTATUS(Status) != 0))
    return 128 + Received;
  if (WIFSIGNALED(Status))
    return 128 + WTERMSIG(Status);
  return WEXITSTATUS(Status);
}

} // namespace orrery::run
