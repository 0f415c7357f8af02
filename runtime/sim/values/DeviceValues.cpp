//===- DeviceValues.cpp - Values of device memory read by the host --------===//

#include "DeviceValues.h"
#include "CallerLines.h"
#include "ValueChoice.h"
#include "orrery/support/DeviceValueSpec.h"
#include "orrery/support/ReadFile.h"
#include "orrery/support/RecordedReads.h"
#include "orrery/support/ValueSchedule.h"
#include "ranks/SharedHost.h"

#include <mpi.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace orrery::sim {

std::vector<UserValue> &userValues() {
  static std::vector<UserValue> V;
  return V;
}

namespace {

/// Reads so far of each site by each rank (through a caller line's value, if
/// one matched): where a rank is in a schedule.
using ReadKey = std::tuple<const orrery_site *, const Rank *, const void *>;
std::map<ReadKey, std::uint64_t> &readCounts() {
  static std::map<ReadKey, std::uint64_t> M;
  return M;
}

/// Parsed schedules by their text (a pragma's, a user's).
const support::ValueSchedule *schedule(const std::string &Text,
                                       std::string &Error) {
  static std::map<std::string, support::ValueSchedule> Cache;
  auto It = Cache.find(Text);
  if (It == Cache.end()) {
    support::ValueSchedule S;
    if (!support::parseValueSchedule(Text, S, Error))
      return nullptr;
    It = Cache.emplace(Text, std::move(S)).first;
  }
  return &It->second;
}

/// Recorded files (orrery-run --replay-reads): by rank.
struct Replay {
  std::vector<std::pair<std::string, support::RecordedReads>> Files;
  int WorldSize = 0; ///< the recorded run's ranks
  /// Where each rank is in each site's recording.
  struct Cursor {
    const support::RecordedSite *Site = nullptr;
    const std::string *Path = nullptr;
    std::size_t Run = 0;
    std::uint64_t InRun = 0;
    std::uint64_t Past = 0; ///< reads after the recording ended
  };
  std::map<std::pair<const orrery_site *, const Rank *>, Cursor> Cursors;
  std::map<const support::RecordedSite *, bool> Used;
};

Replay &replay() {
  static Replay R;
  return R;
}

std::string baseName(const std::string &Path) {
  std::size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

/// A recorded site is the simulated one when their lines match and their
/// files do, the recording's path as given or by base name (the native and
/// the simulated build may sit in different directories).
bool sameSite(const support::RecordedSite &Rec, const orrery_site *Site) {
  return Site->file && Rec.Line == Site->line &&
         (sameFile(Rec.File, Site->file) ||
          baseName(Rec.File) == baseName(Site->file));
}

/// The recording of \p Site's reads by rank \p R: its own rank's, else rank
/// Id modulo the recorded run's size (a run at a larger scale repeats the
/// recorded ranks' values); null when none recorded the site.
Replay::Cursor *replayCursor(const orrery_site *Site, Rank &R) {
  Replay &P = replay();
  if (P.Files.empty() || !Site)
    return nullptr;
  auto [It, New] = P.Cursors.try_emplace({Site, &R});
  if (New) {
    int From = R.Id % P.WorldSize;
    for (const auto &[Path, File] : P.Files)
      if (File.Rank == From)
        for (const support::RecordedSite &Rec : File.Sites)
          if (sameSite(Rec, Site) && !Rec.Values.empty()) {
            It->second.Site = &Rec;
            It->second.Path = &Path;
            P.Used[&Rec] = true;
          }
  }
  return It->second.Site ? &It->second : nullptr;
}

/// The next recorded value of \p C; the last one again once it ran out.
std::string nextRecorded(Replay::Cursor &C) {
  const auto &Runs = C.Site->Values;
  if (C.Run >= Runs.size()) {
    ++C.Past;
    return Runs.back().first;
  }
  std::string V = Runs[C.Run].first;
  if (++C.InRun >= Runs[C.Run].second) {
    ++C.Run;
    C.InRun = 0;
  }
  return V;
}

} // namespace

bool hasRecording(const orrery_site *Site, Rank &R) {
  return replayCursor(Site, R) != nullptr;
}

bool resultValuesGiven() {
  return !userValues().empty() || !replay().Files.empty();
}

bool sameFile(const std::string &Given, const char *SiteFile) {
  if (!SiteFile)
    return false;
  std::string F = SiteFile;
  if (F == Given)
    return true;
  if (F.size() > Given.size() &&
      F.compare(F.size() - Given.size(), Given.size(), Given) == 0 &&
      F[F.size() - Given.size() - 1] == '/')
    return true;
  return false;
}

bool encodeDeviceValue(const std::string &Type, const std::string &Text,
                       std::vector<unsigned char> &Out) {
  Out.clear();
  // A recorded read whose elements differ: its bytes (RecordedReads.h).
  if (Text.rfind("bytes:", 0) == 0)
    return encodeDeviceValue("bytes", Text.substr(6), Out);
  const char *S = Text.c_str();
  char *End = nullptr;
  errno = 0;
  if (Type == "f32" || Type == "f64") {
    double D = std::strtod(S, &End);
    if (End == S || *End || errno == ERANGE)
      return false;
    if (Type == "f32") {
      // Past FLT_MAX a float is infinite: not the value asked for.
      if (std::isfinite(D) && std::fabs(D) > FLT_MAX)
        return false;
      float F = static_cast<float>(D);
      Out.resize(4);
      std::memcpy(Out.data(), &F, 4);
    } else {
      Out.resize(8);
      std::memcpy(Out.data(), &D, 8);
    }
    return true;
  }
  if (Type == "bytes" && Text.size() > 2 && Text[0] == '0' &&
      (Text[1] == 'x' || Text[1] == 'X')) {
    // A byte pattern in memory order: 0x0102 writes 01 02 01 02 ...
    std::string Hex = Text.substr(2);
    if (Hex.size() % 2)
      return false;
    for (size_t I = 0; I < Hex.size(); I += 2) {
      char Pair[3] = {Hex[I], Hex[I + 1], 0};
      long B = std::strtol(Pair, &End, 16);
      if (*End)
        return false;
      Out.push_back(static_cast<unsigned char>(B));
    }
    return true;
  }
  size_t N = std::max<size_t>(1, support::valueTypeBytes(Type)); // bytes: 1
  bool Signed = Type[0] == 'i';
  long long I = 0;
  unsigned long long U = 0;
  if (Signed || Text[0] == '-') {
    I = std::strtoll(S, &End, 0);
    U = static_cast<unsigned long long>(I);
  } else {
    U = std::strtoull(S, &End, 0);
    I = static_cast<long long>(U);
  }
  if (End == S || *End || errno == ERANGE)
    return false;
  if (N < 8) {
    long long Lo = Signed ? -(1LL << (8 * N - 1)) : 0;
    long long Hi = Signed ? (1LL << (8 * N - 1)) - 1 : (1LL << (8 * N)) - 1;
    if (I < Lo || I > Hi)
      return false;
  }
  Out.resize(N);
  std::memcpy(Out.data(), &U, N); // little endian: the low bytes
  return true;
}

void fill(void *Dst, std::size_t Bytes, const std::vector<unsigned char> &E) {
  auto *P = static_cast<unsigned char *>(Dst);
  std::size_t Whole = Bytes / E.size() * E.size();
  for (std::size_t Off = 0; Off < Whole; Off += E.size())
    std::memcpy(P + Off, E.data(), E.size());
  std::memset(P + Whole, 0, Bytes - Whole);
}

namespace {

/// The JSON list in the file environment variable \p Var names (orrery-run
/// writes it, saying \p What it lists); an empty list when it is not set.
nlohmann::json settingList(const char *Var, const char *What) {
  const char *Path = std::getenv(Var);
  if (!Path || !*Path)
    return nlohmann::json::array();
  std::ifstream In(Path);
  nlohmann::json J = nlohmann::json::parse(In, nullptr, false);
  if (!In || J.is_discarded() || !J.is_array())
    fatal(std::string(Var) + "='" + Path + "' is not a JSON list of " + What +
          " (orrery-run writes it)");
  return J;
}

/// ORRERY_REPLAY_READS: the recorded files (orrery-run checked them; a
/// file changed since is named here).
void loadReplayFiles() {
  Replay &P = replay();
  for (const auto &E : settingList("ORRERY_REPLAY_READS", "recorded files")) {
    if (!E.is_string())
      fatal("ORRERY_REPLAY_READS: an entry is not a file name");
    support::RecordedReads File;
    std::string Error;
    if (!support::readRecordedReads(E.get<std::string>(), File, Error))
      fatal("--replay-reads: " + Error);
    P.WorldSize = std::max(P.WorldSize, File.WorldSize);
    P.Files.emplace_back(E.get<std::string>(), std::move(File));
  }
}

} // namespace

void loadDeviceValues() {
  loadReplayFiles();
  const char *Path = std::getenv("ORRERY_DEVICE_VALUES");
  if (!Path || !*Path)
    return;
  std::string Text, Why;
  std::vector<support::DeviceValueSpec> Given;
  if (!support::readFile(Path, Text, &Why) ||
      !support::parseDeviceValuesJson(Text, Given, Why))
    fatal(std::string("ORRERY_DEVICE_VALUES='") + Path + "': " + Why +
          " (orrery-run writes it)");
  for (support::DeviceValueSpec &D : Given) {
    UserValue U;
    static_cast<support::DeviceValueSpec &>(U) = std::move(D);
    userValues().push_back(std::move(U));
  }
}

/// The user's value for \p Site: one set at the line of a caller on the
/// call stack (the nearest such caller, named in \p Via) wins over one set
/// at the site's own line. Call stacks are read only while some value has
/// matched no site's own line (it may name a caller).
UserValue *userValueFor(const orrery_site *Site, std::string &Via) {
  UserValue *Own = nullptr;
  bool MaybeCallers = false;
  for (UserValue &U : userValues()) {
    if (!U.Arg.empty())
      continue; // a kernel's output (kernelOutputs)
    if (U.Line == Site->line && sameFile(U.File, Site->file)) {
      U.Used = U.IsSite = true;
      Own = &U;
    } else if (!U.IsSite) {
      MaybeCallers = true;
    }
  }
  if (!MaybeCallers)
    return Own;
  std::string Why;
  for (const SourceLine &L : callerLines(Why)) {
    if (L.Line == Site->line && sameFile(baseName(L.File), Site->file))
      continue; // the site's own frame
    for (UserValue &U : userValues())
      if (!U.IsSite && U.Arg.empty() && U.Line == L.Line &&
          (sameFile(U.File, L.File.c_str()) ||
           baseName(U.File) == baseName(L.File))) {
        U.Used = true;
        Via = baseName(L.File) + ":" + std::to_string(L.Line);
        return &U;
      }
  }
  if (!Why.empty())
    Runtime::get().report().warn("values set at callers' lines cannot be "
                                 "matched: " +
                                 Why);
  return Own;
}

Chosen chooseValue(Rank &R, const orrery_site *Site, UserValue *User,
                   const std::string &Via, const char *Pragma) {
  Chosen C;
  // A value the user set wins over a recording, which wins over a pragma.
  Replay::Cursor *Recorded = replayCursor(Site, R); // marks it used
  if (User)
    Recorded = nullptr;
  C.Spec = User ? User->Value : Pragma ? Pragma : "";
  C.Source = User ? User->Origin : Pragma ? "pragma" : "default";
  if (Recorded) {
    C.Spec = "recorded";
    const Replay &P = replay();
    C.Source = "--replay-reads " +
               (P.Files.size() == 1
                    ? baseName(*Recorded->Path)
                    : "(" + std::to_string(P.Files.size()) + " files)");
  }
  C.Site = Site ? std::string(Site->file) + ":" + std::to_string(Site->line) +
                      ":" + std::to_string(Site->column)
                : std::string("(a copy outside instrumented code)");
  C.Via = Via;

  Report &Rep = Runtime::get().report();
  // This rank's next read of the site takes the schedule's next value.
  std::string Error;
  C.Text = C.Spec;
  if (Recorded) {
    C.Text = nextRecorded(*Recorded);
  } else if (!C.Spec.empty()) {
    const support::ValueSchedule *S = schedule(C.Spec, Error);
    if (!S) {
      Rep.warn("device value '" + C.Spec + "' for " + C.key() + ": " + Error +
               "; the read kept what it has without a value");
      C.Spec.clear();
      C.Text.clear();
      C.Source = "default";
    } else if (!S->constant()) {
      C.Text = S->valueAt(readCounts()[{Site, &R, User}]++);
    }
  }
  return C;
}

/// Encodes \p C's value as \p Type (a warning and no value when it does
/// not fit); false when nothing is to be written.
bool encodeChosen(Chosen &C, const std::string &Type,
                  std::vector<unsigned char> &E) {
  if (C.Text.empty() || C.Text == "keep")
    return false;
  if (encodeDeviceValue(Type, C.Text, E))
    return true;
  Runtime::get().report().warn(
      "device value '" + C.Text + "' for " + C.key() + " is not a " + Type +
      " value (or is out of its range); it was not written: give one that "
      "fits the type read there");
  C.Text.clear();
  C.Spec.clear();
  C.Source = "default";
  return false;
}

void recordRead(const Chosen &C, const orrery_site *Site,
                const std::string &Type, double Bytes, const char *Api) {
  DeviceReadTotals &T = Runtime::get().report().deviceRead(C.key());
  T.Site = C.Site;
  T.Via = C.Via;
  T.Api = Api ? Api : Site ? Site->api : "";
  T.Type = Type;
  T.Value = C.Spec.empty() ? "0" : C.Spec;
  // A recorded buffer's bytes can be long: the report keeps their start.
  T.Last = C.Text.empty()       ? "0"
           : C.Text.size() > 48 ? C.Text.substr(0, 45) + "..."
                                : C.Text;
  T.Source = C.Source;
  ++T.Reads;
  T.Bytes += Bytes;
}

void deviceRead(Rank &R, void *Dst, std::size_t Bytes) {
  const orrery_site *Site = R.Open.empty() ? nullptr : R.Open.back().Site;
  std::string Type = "bytes";
  const char *Pragma = nullptr;
  if (Site && R.Read.Site == Site) {
    if (R.Read.Type)
      Type = R.Read.Type;
    Pragma = R.Read.Pragma;
  }
  std::string Via;
  UserValue *User = Site ? userValueFor(Site, Via) : nullptr;
  Chosen C = chooseValue(R, Site, User, Via, Pragma);
  std::vector<unsigned char> E;
  if (encodeChosen(C, Type, E))
    fill(Dst, Bytes, E);
  else if (!shared_host::contains(Dst))
    std::memset(Dst, 0, Bytes); // device memory holds no data
  recordRead(C, Site, Type, static_cast<double>(Bytes));
}

void warnUnusedDeviceValues(Report &Rep) {
  const Replay &P = replay();
  std::map<std::string, std::uint64_t> Past; // by site, over ranks
  for (const auto &[Key, C] : P.Cursors)
    if (C.Site && C.Past)
      Past[C.Site->File + ":" + std::to_string(C.Site->Line)] += C.Past;
  for (const auto &[Where, N] : Past)
    Rep.warn("--replay-reads: " + std::to_string(N) + " read(s) of " + Where +
             " came after the recording ended and got its last value again: "
             "the simulated run read more often than the recorded one (a "
             "larger problem, more steps); record such a run, or set the "
             "site with --device-value");
  // Recorded sites no simulated rank read (ranks the simulation has).
  std::map<std::string, std::string> Unmatched; // FILE:LINE -> a file
  int Simulated = Runtime::get().rankCount();
  for (const auto &[Path, File] : P.Files)
    for (const support::RecordedSite &Rec : File.Sites)
      if (!P.Used.count(&Rec) && File.Rank < Simulated)
        Unmatched.emplace(Rec.File + ":" + std::to_string(Rec.Line), Path);
  for (const auto &[Where, Path] : Unmatched)
    Rep.warn("--replay-reads " + Path + ": the recorded reads of " + Where +
             " matched no simulated read (a different source or line "
             "numbers: record again from the source the simulation runs)");

  for (const UserValue &U : userValues())
    if (!U.Used && !U.Arg.empty())
      Rep.warn(U.Origin + " " + U.File + ":" + std::to_string(U.Line) + "@" +
               U.Arg + "=" + U.Value +
               " matched no kernel launch: name the line of a <<<>>> launch "
               "(the report's kernels list them) and one of the kernel's "
               "pointer parameters");
    else if (!U.Used)
      Rep.warn(U.Origin + " " + U.File + ":" + std::to_string(U.Line) + "=" +
               U.Value +
               " matched no device-to-host copy or MPI reduction result: name "
               "the line of the cudaMemcpy or MPI call (the report's device "
               "reads list the copies), or the line of a call on the way to "
               "it");
}

} // namespace orrery::sim
