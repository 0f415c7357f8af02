//===- SiteProfile.cpp - Per-site call counts and times -------------------===//

#include "SiteProfile.h"
#include "LauncherEnv.h"

#include "orrery/formats/Formats.h"
#include "orrery/support/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <vector>

namespace orrery::native {

std::string categoryOf(const orrery_site *Site) {
  const char *Api = Site->api ? Site->api : "";
  switch (Site->kind) {
  case ORRERY_KIND_MPI:
    if (!std::strcmp(Api, "MPI_Init") || !std::strcmp(Api, "MPI_Init_thread") ||
        !std::strcmp(Api, "MPI_Finalize"))
      return "";
    return "network";
  case ORRERY_KIND_RAMC:
    return "network";
  case ORRERY_KIND_LAUNCH:
    return "launch";
  case ORRERY_KIND_CUDA:
    if (std::strstr(Api, "Memcpy") || std::strstr(Api, "Memset"))
      return "copies";
    if (std::strstr(Api, "Synchronize") || std::strstr(Api, "EventQuery") ||
        std::strstr(Api, "StreamQuery"))
      return "sync";
    return "call_overhead";
  default:
    return "call_overhead";
  }
}

SiteProfile::SiteProfile() : Loaded(Clock::now()) {
  const char *Trace = std::getenv("ORRERY_TRACE");
  Tracing = Trace && *Trace;
}

SiteProfile &SiteProfile::instance() {
  static SiteProfile P;
  return P;
}

void SiteProfile::record(const orrery_site *Site, Clock::time_point Begin,
                         Clock::time_point End, long long Bytes,
                         bool Outermost) {
  std::lock_guard<std::mutex> G(Lock);
  Entry &E = Sites[Site];
  ++E.Calls;
  E.Bytes += Bytes;
  double Seconds = std::chrono::duration<double>(End - Begin).count();
  E.Seconds += Seconds;
  std::string Cat = categoryOf(Site);
  if (Tracing) {
    auto [It, New] = Threads.try_emplace(std::this_thread::get_id(),
                                         static_cast<int>(Threads.size()));
    (void)New;
    static const long Rank = worldRank(); // the launcher's, fixed
    Spans.push_back({static_cast<int>(Rank < 0 ? 0 : Rank), It->second,
                     std::chrono::duration<double>(Begin - Loaded).count(),
                     Seconds, Site->api ? Site->api : "?",
                     Cat.empty() ? "setup" : Cat});
  }
  if (!Outermost)
    return;
  if (!Cat.empty()) {
    Categories[Cat] += Seconds;
    return;
  }
  if (!std::strcmp(Site->api, "MPI_Finalize")) {
    WindowEnd = Begin;
    HaveEnd = true;
  } else {
    // Time before MPI_Init returned (and MPI_Init itself) is start-up.
    WindowBegin = End;
    HaveBegin = true;
    Categories.clear();
  }
}

double SiteProfile::sinceLoad(Clock::time_point T) const {
  return std::chrono::duration<double>(T - Loaded).count();
}

/// The first timeline track of device streams (host threads are 0, 1, ...).
constexpr int FirstStreamTrack = 1000;

void SiteProfile::recordDevice(const std::vector<DeviceSpan> &Done,
                               unsigned long long Untimed) {
  std::lock_guard<std::mutex> G(Lock);
  UntimedDevice = Untimed;
  static const long Rank = worldRank();
  for (const DeviceSpan &D : Done) {
    Entry &E = Sites[D.Site];
    ++E.DeviceCalls;
    E.DeviceSeconds += D.Duration;
    if (!Tracing)
      continue;
    auto [It, New] =
        Streams.try_emplace(D.Stream, static_cast<int>(Streams.size()));
    (void)New;
    Spans.push_back({static_cast<int>(Rank < 0 ? 0 : Rank),
                     FirstStreamTrack + It->second, D.Start, D.Duration,
                     D.Site->kind == ORRERY_KIND_LAUNCH
                         ? std::string(D.Site->callee ? D.Site->callee : "?")
                         : std::string(D.Site->api),
                     D.Site->kind == ORRERY_KIND_LAUNCH ? "kernel" : "copies"});
  }
}

bool SiteProfile::write(const std::string &Path) const {
  nlohmann::json Records = nlohmann::json::array();
  {
    std::lock_guard<std::mutex> G(Lock);
    for (const auto &[Site, E] : Sites)
      Records.push_back({{"id", Site->id},
                         {"file", Site->file},
                         {"line", Site->line},
                         {"api", Site->api},
                         {"callee", Site->callee ? Site->callee : ""},
                         {"calls", E.Calls},
                         {"seconds", E.Seconds},
                         {"bytes", E.Bytes}});
  }
  nlohmann::json Doc = {{"mode", "native"}, {"sites", Records}};
  std::string Error;
  return support::writeFileAtomically(Path, Doc.dump(2) + "\n", Error);
}

bool SiteProfile::writeReport(const std::string &Path,
                              std::string &Error) const {
  using OJ = nlohmann::ordered_json;
  std::lock_guard<std::mutex> G(Lock);
  Clock::time_point Now = Clock::now();
  Clock::time_point From = HaveBegin ? WindowBegin : Loaded;
  Clock::time_point To = HaveEnd ? WindowEnd : Now;
  double Measured = std::chrono::duration<double>(To - From).count();
  char Host[256] = "";
  gethostname(Host, sizeof Host - 1);
  namespace F = formats::report;
  OJ J;
  J[F::Schema] = formats::ReportSchema;
  J[F::Kind] = "measured";
  J[F::Machine] = {{F::MachineName, Host}, {F::MachineFile, ""}};
  J[F::NetworkMode] = "native";
  // One report per process: its times are this rank's, so "ranks" is 1 and
  // per-rank comparisons divide by 1.
  J[F::Ranks] = 1;
  J[F::Rank] = worldRank() < 0 ? 0 : worldRank();
  J[F::WorldSize] = worldSize() < 0 ? 1 : worldSize();
  J[F::Completed] = true;
  J[F::MeasuredSeconds] = Measured;
  J[F::WallSeconds] = std::chrono::duration<double>(Now - Loaded).count();
  OJ B = OJ::object();
  double Charged = 0;
  // The categories every report has (ReportCategories.def), in order; those a
  // native run cannot tell apart (kernel time, device legs, host bounce,
  // reductions happen inside launches and MPI calls) stay 0.
  for (const formats::ReportCategory &C : formats::reportCategories()) {
    if (C.When != formats::Presence::Always)
      continue;
    auto It = Categories.find(C.Key);
    B[C.Key] = It == Categories.end() ? 0.0 : It->second;
    Charged += B[C.Key].get<double>();
  }
  B[formats::category::HostCompute] =
      Measured > Charged ? Measured - Charged : 0.0;
  // Device time overlaps the host's: a row of its own, only on a GPU.
  double KernelDevice = 0;
  unsigned long long DeviceLaunches = 0, Launches = 0;
  for (const auto &[Site, E] : Sites)
    if (Site->kind == ORRERY_KIND_LAUNCH) {
      KernelDevice += E.DeviceSeconds;
      DeviceLaunches += E.DeviceCalls;
      Launches += E.Calls;
    }
  if (DeviceLaunches > 0)
    B[formats::category::KernelDevice] = KernelDevice;
  J[F::Breakdown] = B;
  OJ Ks = OJ::array(), Ss = OJ::array();
  bool AnyLaunch = false;
  // In source order, so reports of two runs line up.
  std::vector<std::pair<const orrery_site *, Entry>> Sorted(Sites.begin(),
                                                            Sites.end());
  std::sort(Sorted.begin(), Sorted.end(), [](const auto &A, const auto &B) {
    int F = std::strcmp(A.first->file, B.first->file);
    if (F != 0)
      return F < 0;
    return std::make_pair(A.first->line, A.first->column) <
           std::make_pair(B.first->line, B.first->column);
  });
  for (const auto &[Site, E] : Sorted) {
    std::string Where =
        std::string(Site->file) + ":" + std::to_string(Site->line);
    OJ S = {{F::SiteApi, Site->api},
            {F::SiteWhere, Where},
            {F::SiteCalls, E.Calls},
            {F::SiteSeconds, E.Seconds}};
    if (E.DeviceCalls > 0) {
      S[F::SiteDeviceCalls] = E.DeviceCalls;
      S[F::SiteDeviceSeconds] = E.DeviceSeconds;
    }
    Ss.push_back(S);
    if (Site->kind == ORRERY_KIND_LAUNCH) {
      AnyLaunch = true;
      // A kernel's time is its device time where it was timed there (as a
      // simulation's kernel rows are), else its host-side launch calls.
      OJ K = {
          {F::KernelName, Site->callee ? Site->callee : ""},
          {F::KernelSite, Where},
          {F::KernelLaunches, E.Calls},
          {F::KernelSeconds, E.DeviceCalls > 0 ? E.DeviceSeconds : E.Seconds}};
      if (E.DeviceCalls > 0) {
        K[F::KernelDeviceLaunches] = E.DeviceCalls;
        K[F::KernelLaunchSeconds] = E.Seconds;
      }
      Ks.push_back(K);
    }
  }
  J[F::Kernels] = Ks;
  J[F::Sites] = Ss;
  OJ W = OJ::array();
  if (AnyLaunch && DeviceLaunches == 0)
    W.push_back("kernel times are the host-side launch calls (no kernel was "
                "timed on the device: no CUDA driver loaded, or no current "
                "context)");
  else if (DeviceLaunches < Launches)
    W.push_back(std::to_string(Launches - DeviceLaunches) + " of " +
                std::to_string(Launches) +
                " kernel launches were not timed on the device (before the "
                "CUDA runtime made a context current, or their events "
                "failed): their sites' kernel rows count only the timed "
                "ones");
  if (UntimedDevice > 0)
    W.push_back(std::to_string(UntimedDevice) +
                " kernel launches or asynchronous copies could not be timed "
                "on the device");
  J[F::Warnings] = W;
  return support::writeFileAtomically(Path, J.dump(2) + "\n", Error);
}

bool SiteProfile::writeTrace(const std::string &Path,
                             std::string &Error) const {
  std::lock_guard<std::mutex> G(Lock);
  trace::Timeline T;
  long Rank = worldRank() < 0 ? 0 : worldRank();
  T.Processes[static_cast<int>(Rank)] = "rank " + std::to_string(Rank);
  for (const auto &[Id, Track] : Threads)
    T.Threads[{static_cast<int>(Rank), Track}] =
        Track == 0 ? std::string("host")
                   : "host thread " + std::to_string(Track);
  for (const auto &[Stream, Index] : Streams)
    T.Threads[{static_cast<int>(Rank), FirstStreamTrack + Index}] =
        "stream " + std::to_string(Index);
  T.Spans = Spans;
  return support::writeFileAtomically(Path, trace::chromeTraceText(T), Error);
}

SiteProfile::~SiteProfile() {
  long Rank = worldRank();
  if (const char *Env = std::getenv("ORRERY_PROFILE"); Env && *Env) {
    std::string Path = Env;
    replaceAll(Path, "%p", std::to_string(getpid()));
    if (!write(Path))
      std::fprintf(stderr, "orrery: cannot write profile %s (ORRERY_PROFILE)\n",
                   Path.c_str());
  }
  if (const char *Env = std::getenv("ORRERY_REPORT"); Env && *Env) {
    std::string Path = outputPath(Env, Rank), Error;
    if (!Path.empty() && !writeReport(Path, Error))
      std::fprintf(stderr,
                   "orrery: cannot write report %s (ORRERY_REPORT): %s\n",
                   Path.c_str(), Error.c_str());
  }
  if (const char *Env = std::getenv("ORRERY_TRACE"); Env && *Env) {
    std::string Path = outputPath(Env, Rank), Error;
    if (!Path.empty() && !writeTrace(Path, Error))
      std::fprintf(stderr,
                   "orrery: cannot write timeline %s (ORRERY_TRACE): %s\n",
                   Path.c_str(), Error.c_str());
  }
}

} // namespace orrery::native
