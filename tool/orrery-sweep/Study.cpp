//===- Study.cpp - orrery-sweep: reading and expanding a study ------------===//

#include "Study.h"
#include "Layout.h"
#include "orrery/formats/Formats.h"
#include "orrery/support/DeviceValueSpec.h"

#include "llvm/Support/ConvertUTF.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace orrery::sweep {

std::string Point::value(const std::string &Key) const {
  for (const auto &[K, V] : Values)
    if (K == Key)
      return V;
  return "";
}

const std::vector<std::string> &settingNames() {
  static const std::vector<std::string> Names = [] {
    std::vector<std::string> N;
    for (const formats::SweepSetting &S : formats::sweepSettings())
      N.push_back(S.Key);
    return N;
  }();
  return Names;
}

bool isSetting(const std::string &K) {
  const auto &S = settingNames();
  return std::find(S.begin(), S.end(), K) != S.end();
}

namespace {

/// More simulations than a study should ask of one machine; a larger one is
/// almost surely a mistake (and its count could overflow).
constexpr std::size_t MaxPoints = 100000;

struct StudyError {
  YAML::Mark Mark;
  std::string Message;
};

[[noreturn]] void fail(const YAML::Node &N, const std::string &Msg) {
  throw StudyError{N.Mark(), Msg};
}

/// The setting named \p K (SweepSettings.def), or null for a parameter.
const formats::SweepSetting *settingOf(const std::string &K) {
  for (const formats::SweepSetting &S : formats::sweepSettings())
    if (K == S.Key)
      return &S;
  return nullptr;
}

bool isPathSetting(const std::string &K) {
  const formats::SweepSetting *S = settingOf(K);
  return S && S->Value == formats::SettingValue::Path;
}

/// A value as it appears in the study, with where it was written.
struct Value {
  std::string Text;
  YAML::Node Where;
};

std::string scalar(const YAML::Node &N, const std::string &Key) {
  if (!N.IsScalar())
    fail(N, "'" + Key + "' needs a single value here (a number or a string)");
  return N.Scalar();
}

/// Checks one value of setting or parameter \p Key, by the kind of value
/// SweepSettings.def says the setting takes; returns its text.
std::string checkValue(const std::string &Key, const YAML::Node &N,
                       const std::string &StudyDir) {
  const formats::SweepSetting *Setting = settingOf(Key);
  if (!Setting)
    return scalar(N, Key); // a parameter: substituted as one word
  using formats::SettingValue;
  if (Setting->Value == SettingValue::Assignment && N.IsSequence()) {
    std::string Joined;
    for (const auto &E : N) {
      std::string S = checkValue(Key, E, StudyDir);
      Joined += (Joined.empty() ? "" : " ") + S;
    }
    return Joined;
  }
  std::string S = scalar(N, Key);
  switch (Setting->Value) {
  case SettingValue::Count: {
    char *End = nullptr;
    long V = std::strtol(S.c_str(), &End, 10);
    if (S.empty() || *End != '\0' || V < 1 || V > 1000000)
      fail(N, "'" + Key + "' needs a positive whole number, not '" + S +
                  "'; write e.g. " + Key + ": [4, 8, 16]");
    break;
  }
  case SettingValue::Word: {
    std::istringstream Words(Setting->Words);
    bool Known = false;
    for (std::string W; Words >> W;)
      Known |= W == S;
    if (!Known)
      fail(N, "'" + Key + "' is " + Setting->Meaning + ", not '" + S + "'" +
                  (Key == formats::setting::Network
                       ? " (a network file goes under network_file)"
                       : ""));
    break;
  }
  case SettingValue::Assignment: {
    support::DeviceValueSpec Spec;
    std::string Why;
    if (S.find_first_of(" \t\n") != std::string::npos ||
        !support::parseDeviceValueSpec(S, Spec, Why))
      fail(N, "'" + Key + "': " +
                  (Why.empty() ? "'" + S + "' is one FILE:LINE=VALUE" : Why) +
                  " (e.g. jacobi.cu:120=0.5, or a list of them)");
    break;
  }
  case SettingValue::Path: {
    fs::path P =
        fs::path(S).is_absolute() ? fs::path(S) : StudyDir / fs::path(S);
    std::error_code EC; // a name too long for the file system is not there
    if (!fs::exists(P, EC))
      fail(N, "'" + Key + "' file '" + S + "' does not exist (looked for " +
                  P.lexically_normal().string() +
                  "; paths are relative to the study file)");
    break;
  }
  }
  return S;
}

std::string absPath(const std::string &StudyDir, const std::string &S) {
  fs::path P = fs::path(S).is_absolute() ? fs::path(S) : StudyDir / fs::path(S);
  std::error_code EC;
  fs::path A = fs::absolute(P, EC);
  return (EC ? P : A).lexically_normal().string();
}

/// A piece of a point's directory name: letters, digits, '.', '-' and '_'
/// only, never starting with a dot ("..", ".hidden") nor empty.
std::string sanitize(const std::string &S) {
  std::string R;
  for (char C : S)
    R += (std::isalnum(static_cast<unsigned char>(C)) || C == '.' || C == '-')
             ? C
             : '_';
  if (R.empty() || R[0] == '.')
    R.insert(R.begin(), '_');
  return R;
}

std::string namePiece(const std::string &Key, const std::string &V) {
  if (Key == "np")
    return "np" + V;
  if (Key == "ranks_per_node")
    return "rpn" + V;
  if (isPathSetting(Key))
    return sanitize(fs::path(V).stem().string());
  if (Key == "network")
    return sanitize(V);
  if (Key == "device_value")
    return "dv-" + sanitize(V);
  return sanitize(Key + V);
}

/// Names used as {name} in the arguments.
std::set<std::string> placeholders(const std::vector<std::string> &Args) {
  static const std::regex Re(R"(\{([A-Za-z_][A-Za-z0-9_]*)\})");
  std::set<std::string> Names;
  for (const auto &A : Args)
    for (std::sregex_iterator I(A.begin(), A.end(), Re), E; I != E; ++I)
      Names.insert((*I)[1]);
  return Names;
}

std::string substitute(std::string A,
                       const std::map<std::string, std::string> &Params) {
  for (const auto &[K, V] : Params) {
    std::string Pat = "{" + K + "}";
    for (std::size_t P = A.find(Pat); P != std::string::npos;
         P = A.find(Pat, P + V.size()))
      A.replace(P, Pat.size(), V);
  }
  return A;
}

using Axis = std::pair<std::string, std::vector<Value>>;
using Assignment = std::vector<std::pair<std::string, Value>>;

void readStudy(const YAML::Node &Root, const std::string &File, Study &S) {
  if (!Root.IsMap())
    fail(Root, "a study is a map with at least 'program', 'np' and 'machine' "
               "(docs/sweeps.md)");
  static const std::set<std::string> Known = {"program", "args", "axes",
                                              "points", "slurm"};
  Assignment Fixed;
  std::vector<Axis> Axes;
  std::vector<Assignment> Listed;
  YAML::Node ArgsNode;
  for (const auto &KV : Root) {
    std::string K = KV.first.as<std::string>();
    const YAML::Node &V = KV.second;
    if (isSetting(K)) {
      Fixed.push_back({K, {checkValue(K, V, S.Dir), V}});
    } else if (K == "program") {
      std::string P = scalar(V, K);
      S.Program = absPath(S.Dir, P);
      std::error_code EC;
      if (!fs::exists(S.Program, EC))
        fail(V, "program '" + P + "' does not exist (looked for " + S.Program +
                    "; build it with orrery-cxx --orrery-mode=skeleton, paths "
                    "are relative to the study file)");
    } else if (K == "args") {
      ArgsNode = V;
      if (V.IsScalar()) {
        std::istringstream IS(V.Scalar());
        for (std::string W; IS >> W;)
          S.Args.push_back(W);
      } else if (V.IsSequence()) {
        for (const auto &E : V)
          S.Args.push_back(scalar(E, "args"));
      } else if (!V.IsNull()) {
        fail(V, "'args' is a list of program arguments, e.g. "
                "[-niter, 20, -nx, \"{nx}\"]");
      }
    } else if (K == "axes") {
      if (!V.IsMap())
        fail(V, "'axes' maps a setting or parameter to its values, e.g. "
                "np: [4, 8, 16]");
      for (const auto &A : V) {
        std::string Name = A.first.as<std::string>();
        if (!A.second.IsSequence() || A.second.size() == 0)
          fail(A.second, "axis '" + Name +
                             "' needs a non-empty list of "
                             "values, e.g. " +
                             Name + ": [a, b]");
        Axis Ax{Name, {}};
        for (const auto &E : A.second)
          Ax.second.push_back({checkValue(Name, E, S.Dir), E});
        Axes.push_back(Ax);
      }
    } else if (K == "points") {
      if (!V.IsSequence() || V.size() == 0)
        fail(V, "'points' is a non-empty list of maps, e.g. "
                "- {np: 4, nx: 1024}");
      for (const auto &P : V) {
        if (!P.IsMap())
          fail(P, "each point is a map of settings and parameters, e.g. "
                  "{np: 4, nx: 1024}");
        Assignment A;
        for (const auto &KV2 : P) {
          std::string Name = KV2.first.as<std::string>();
          for (const auto &Ax : Axes)
            if (Ax.first == Name)
              fail(KV2.first, "'" + Name +
                                  "' is both an axis and set in a "
                                  "listed point; keep it in one of them");
          A.push_back({Name, {checkValue(Name, KV2.second, S.Dir), KV2.first}});
        }
        Listed.push_back(A);
      }
    } else if (K == "slurm") {
      if (!V.IsMap())
        fail(V, "'slurm' is a map (partition, account, time, mem, limit, "
                "options)");
      for (const auto &KV2 : V) {
        std::string Name = KV2.first.as<std::string>();
        const YAML::Node &W = KV2.second;
        // Each value becomes one #SBATCH line: a line break in one would
        // write lines of its own into the batch script.
        auto OneLine = [&](const YAML::Node &N) {
          std::string T = scalar(N, Name);
          if (T.find_first_of("\n\r") != std::string::npos)
            fail(N, "slurm '" + Name +
                        "' holds a line break; each value becomes one "
                        "#SBATCH line, so give it on one line");
          return T;
        };
        if (Name == "partition")
          S.Slurm.Partition = OneLine(W);
        else if (Name == "account")
          S.Slurm.Account = OneLine(W);
        else if (Name == "time")
          S.Slurm.Time = OneLine(W);
        else if (Name == "mem")
          S.Slurm.Mem = OneLine(W);
        else if (Name == "limit") {
          std::string L = scalar(W, Name);
          char *End = nullptr;
          long N = std::strtol(L.c_str(), &End, 10);
          if (L.empty() || *End || N < 1)
            fail(W, "'limit' is the number of array tasks running at once, "
                    "a positive whole number, not '" +
                        L + "'");
          S.Slurm.Limit = static_cast<int>(N);
        } else if (Name == "options") {
          if (!W.IsSequence())
            fail(W, "'options' is a list of sbatch options, e.g. "
                    "[--qos=normal]");
          for (const auto &E : W)
            S.Slurm.Options.push_back(OneLine(E));
        } else
          fail(KV2.first, "unknown slurm key '" + Name +
                              "'; expected partition, account, time, mem, "
                              "limit or options");
      }
    } else {
      std::string Expected = "program, args, axes, points, slurm";
      for (const auto &N : settingNames())
        Expected += ", " + N;
      fail(KV.first, "unknown key '" + K + "'; expected one of " + Expected +
                         " (argument parameters go under axes or points)");
    }
  }
  if (S.Program.empty())
    fail(Root, "the study names no program; add program: PATH (a skeleton "
               "built with orrery-cxx --orrery-mode=skeleton)");

  std::string Stamp;
  {
    std::error_code EC;
    auto Size = fs::file_size(S.Program, EC);
    auto Time = fs::last_write_time(S.Program, EC);
    Stamp = std::to_string(Size) + ":" +
            std::to_string(Time.time_since_epoch().count());
  }
  // Parameters: every non-setting name must be used in args and vice versa.
  std::set<std::string> Used = placeholders(S.Args);
  std::set<std::string> Given;
  auto checkParam = [&](const std::string &Name, const YAML::Node &Where) {
    if (isSetting(Name))
      return;
    Given.insert(Name);
    if (!Used.count(Name)) {
      std::string All;
      for (const auto &N : settingNames())
        All += (All.empty() ? "" : ", ") + N;
      fail(Where, "'" + Name + "' is not a setting (" + All +
                      ") and args do not use {" + Name + "}; add {" + Name +
                      "} to args or remove it");
    }
  };
  for (const auto &Ax : Axes)
    checkParam(Ax.first, Ax.second.front().Where);
  for (const auto &P : Listed)
    for (const auto &[K, V] : P)
      checkParam(K, V.Where);
  for (const auto &U : Used)
    if (!Given.count(U))
      fail(ArgsNode, "args use {" + U + "} but no axis or point gives " + U +
                         "; add an axis '" + U + ": [...]'");

  // Varied names: axes, then keys of listed points, in order of appearance.
  for (const auto &Ax : Axes)
    S.Varied.push_back(Ax.first);
  for (const auto &P : Listed)
    for (const auto &KV : P)
      if (std::find(S.Varied.begin(), S.Varied.end(), KV.first) ==
          S.Varied.end())
        S.Varied.push_back(KV.first);

  if (Listed.empty())
    Listed.push_back({});
  // Cross product: listed points x axes (the last axis varies fastest),
  // bounded before it is counted (16 axes of 16 values overflow 64 bits).
  std::size_t Total = 1;
  for (const auto &Ax : Axes) {
    if (Ax.second.size() > MaxPoints / Total / Listed.size())
      fail(Root, "the axes' cross product (times " +
                     std::to_string(Listed.size()) +
                     " listed point(s)) exceeds " + std::to_string(MaxPoints) +
                     " points at axis '" + Ax.first +
                     "'; split the study or list the points you need");
    Total *= Ax.second.size();
  }
  std::map<std::string, int> NameCount;
  for (const auto &L : Listed) {
    for (std::size_t C = 0; C < Total; ++C) {
      std::vector<std::size_t> Digit(Axes.size());
      for (std::size_t I = Axes.size(), R = C; I-- > 0;) {
        Digit[I] = R % Axes[I].second.size();
        R /= Axes[I].second.size();
      }
      Assignment A = Fixed;
      auto set = [&A](const std::string &K, const Value &V) {
        for (auto &KV : A)
          if (KV.first == K) {
            KV.second = V;
            return;
          }
        A.push_back({K, V});
      };
      for (const auto &KV : L)
        set(KV.first, KV.second);
      for (std::size_t I = 0; I < Axes.size(); ++I)
        set(Axes[I].first, Axes[I].second[Digit[I]]);

      Point P;
      P.Index = S.Points.size();
      std::map<std::string, std::string> Params;
      std::string Np, Rpn, Machine, Network, NetFile, DevValues;
      std::vector<std::string> DevValue;
      for (const auto &[K, V] : A) {
        if (K == "np")
          Np = V.Text;
        else if (K == "ranks_per_node")
          Rpn = V.Text;
        else if (K == "machine")
          Machine = absPath(S.Dir, V.Text);
        else if (K == "network")
          Network = V.Text;
        else if (K == "network_file")
          NetFile = absPath(S.Dir, V.Text);
        else if (K == "device_values")
          DevValues = absPath(S.Dir, V.Text);
        else if (K == "device_value") {
          std::istringstream IS(V.Text);
          for (std::string W; IS >> W;)
            DevValue.push_back(W);
        } else
          Params[K] = V.Text;
      }
      if (Np.empty())
        fail(Root, "no 'np' for point " + std::to_string(P.Index) +
                       "; add np: N at the top or an axis np: [4, 8, ...]");
      if (Machine.empty())
        fail(Root, "no 'machine' for point " + std::to_string(P.Index) +
                       "; add machine: FILE (e.g. models/machines/"
                       "musica-h100.yaml) at the top or as an axis");
      // Values in a fixed order: settings, then parameters by name.
      for (const auto &N : settingNames())
        for (const auto &[K, V] : A)
          if (K == N)
            P.Values.push_back({K, V.Text});
      for (const auto &[K, V] : Params)
        P.Values.push_back({K, V});
      P.Np = std::atoi(Np.c_str());
      P.ProgramStamp = Stamp;
      P.RunArgs = {"-np", Np};
      if (!Rpn.empty())
        P.RunArgs.insert(P.RunArgs.end(), {"--ranks-per-node", Rpn});
      P.RunArgs.insert(P.RunArgs.end(), {"--machine", Machine});
      if (!NetFile.empty())
        P.RunArgs.insert(P.RunArgs.end(), {"--network-file", NetFile});
      if (!Network.empty() && Network != "default")
        P.RunArgs.insert(P.RunArgs.end(), {"--network", Network});
      for (const auto &D : DevValue)
        P.RunArgs.insert(P.RunArgs.end(), {"--device-value", D});
      if (!DevValues.empty())
        P.RunArgs.insert(P.RunArgs.end(), {"--device-values", DevValues});
      P.RunArgs.push_back(S.Program);
      for (const auto &Arg : S.Args)
        P.RunArgs.push_back(substitute(Arg, Params));

      S.Points.push_back(P);
    }
  }
  // Names: the values of the names that take more than one value.
  for (const auto &K : S.Varied) {
    std::set<std::string> Distinct;
    for (const auto &P : S.Points)
      Distinct.insert(P.value(K));
    if (Distinct.size() < 2)
      continue;
    for (auto &P : S.Points)
      P.Name += (P.Name.empty() ? "" : "_") + namePiece(K, P.value(K));
  }
  for (auto &P : S.Points)
    if (P.Name.empty())
      P.Name = "point";
  // Names are unique: repeated ones get their index, and a name that still
  // meets one taken (a value "1-1" beside the second "1") more.
  for (const auto &P : S.Points)
    ++NameCount[P.Name];
  for (auto &P : S.Points)
    if (NameCount[P.Name] > 1)
      P.Name += "-" + std::to_string(P.Index);
  std::set<std::string> Taken;
  for (auto &P : S.Points) {
    std::string Base = P.Name;
    for (int K = 1; !Taken.insert(P.Name).second; ++K)
      P.Name = Base + "-" + std::to_string(P.Index) + "-" + std::to_string(K);
  }
}

std::string where(const std::string &File, const YAML::Mark &M) {
  if (M.is_null())
    return File + ":1:1";
  return File + ":" + std::to_string(M.line + 1) + ":" +
         std::to_string(M.column + 1);
}

} // namespace

bool loadStudy(const std::string &File, Study &S, std::string &Error) {
  std::error_code EC;
  if (!fs::is_regular_file(File, EC)) {
    Error = File + ": error: cannot read the study file; check the path "
                   "(orrery-sweep STUDY.yaml -o DIR)";
    return false;
  }
  std::string Text;
  if (!readFile(File, Text)) {
    Error = File + ": error: cannot read the study file";
    return false;
  }
  fs::path Abs = fs::absolute(File, EC);
  return parseStudy(
      Text, File,
      (EC ? fs::path(File) : Abs).parent_path().lexically_normal().string(), S,
      Error);
}

bool parseStudy(const std::string &Text, const std::string &File,
                const std::string &Dir, Study &S, std::string &Error) {
  S.File = File;
  S.Dir = Dir;
  // Names and values reach sweep.json and results.csv: text only.
  const auto *Begin = reinterpret_cast<const llvm::UTF8 *>(Text.data());
  const llvm::UTF8 *At = Begin;
  if (!llvm::isLegalUTF8String(&At, Begin + Text.size())) {
    std::size_t Offset = At - Begin;
    std::size_t Line =
        1 + std::count(Text.begin(), Text.begin() + Offset, '\n');
    char Byte[8];
    std::snprintf(Byte, sizeof Byte, "0x%02X", unsigned(*At));
    Error = File + ":" + std::to_string(Line) + ": error: byte " + Byte +
            " is not UTF-8; save the study as UTF-8 text";
    return false;
  }
  try {
    YAML::Node Root = YAML::Load(Text);
    readStudy(Root, File, S);
  } catch (const StudyError &E) {
    Error = where(File, E.Mark) + ": error: " + E.Message;
    return false;
  } catch (const YAML::Exception &E) {
    Error = where(File, E.mark) + ": error: " + E.msg +
            " (the study file is not valid YAML)";
    return false;
  }
  return true;
}

} // namespace orrery::sweep
