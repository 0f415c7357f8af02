//===- Collect.cpp - orrery-sweep: reports into one tidy CSV --------------===//

#include "Collect.h"
#include "Layout.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace orrery::sweep {

namespace {

std::string csvField(const std::string &S) {
  if (S.find_first_of(",\"\n\r") == std::string::npos)
    return S;
  std::string R = "\"";
  for (char C : S)
    R += C == '"' ? std::string("\"\"") : std::string(1, C);
  return R + "\"";
}

std::string num(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.9g", V);
  return Buf;
}

std::string text(const json &J, const char *Key) {
  if (!J.contains(Key) || J[Key].is_null())
    return "";
  const json &V = J[Key];
  if (V.is_string())
    return V.get<std::string>();
  if (V.is_number_integer())
    return std::to_string(V.get<long long>());
  if (V.is_number())
    return num(V.get<double>());
  return V.dump();
}

const std::vector<std::string> SettingColumns = {
    "np",           "ranks_per_node", "machine",      "network",
    "network_file", "device_value",   "device_values"};

struct Source {
  Point P;
  std::string ReportPath;
};

} // namespace

std::vector<std::string> csvColumns(const std::vector<std::string> &Params) {
  std::vector<std::string> Head = {"point", "point_name"};
  Head.insert(Head.end(), SettingColumns.begin(), SettingColumns.end());
  Head.insert(Head.end(), Params.begin(), Params.end());
  for (const char *C : {"machine_name", "ranks", "nodes", "simulated_seconds",
                        "wall_seconds", "kind", "name", "site", "seconds",
                        "share", "launches", "flops", "bytes", "confidence"})
    Head.push_back(C);
  return Head;
}

bool appendReportRows(const std::string &Report, const Point &P,
                      const std::vector<std::string> &Params, std::ostream &Out,
                      std::size_t &Rows) {
  json J = json::parse(Report, nullptr, false);
  if (J.is_discarded() || !J.is_object() || !J.contains("breakdown") ||
      !J["breakdown"].is_object())
    return false;
  std::ostringstream OS;
  json Machine = J.value("machine", json::object());
  std::vector<std::string> Common = {std::to_string(P.Index), P.Name};
  for (const auto &C : SettingColumns) {
    std::string V = P.value(C);
    if (V.empty() && C == "np")
      V = text(J, "ranks");
    if (V.empty() && C == "ranks_per_node")
      V = text(J, "ranks_per_node");
    if (V.empty() && C == "machine")
      V = Machine.is_object() ? text(Machine, "file") : "";
    if (V.empty() && C == "network")
      V = text(J, "network_mode");
    Common.push_back(V);
  }
  for (const auto &K : Params)
    Common.push_back(P.value(K));
  Common.push_back(Machine.is_object() ? text(Machine, "name") : "");
  Common.push_back(text(J, "ranks"));
  Common.push_back(text(J, "nodes"));
  Common.push_back(text(J, "simulated_seconds"));
  Common.push_back(text(J, "wall_seconds"));
  auto row = [&](const std::vector<std::string> &Rest) {
    std::vector<std::string> All = Common;
    All.insert(All.end(), Rest.begin(), Rest.end());
    for (std::size_t I = 0; I < All.size(); ++I)
      OS << (I ? "," : "") << csvField(All[I]);
    OS << "\n";
    ++Rows;
  };
  // A report edited by hand may carry anything: a missing or non-numeric
  // rank count divides by one.
  double Ranks = J.contains("ranks") && J["ranks"].is_number()
                     ? J["ranks"].get<double>()
                     : 1.0,
         Sum = 0;
  if (!(Ranks > 0))
    Ranks = 1;
  for (const auto &[K, V] : J["breakdown"].items())
    if (V.is_number())
      Sum += V.get<double>();
  for (const auto &[K, V] : J["breakdown"].items()) {
    if (!V.is_number())
      continue;
    double Sec = V.get<double>();
    row({"category", K, "", num(Sec / Ranks), Sum > 0 ? num(Sec / Sum) : "0",
         "", "", "", ""});
  }
  if (J.contains("kernels") && J["kernels"].is_array())
    for (const auto &Kn : J["kernels"])
      row({"kernel", text(Kn, "name"), text(Kn, "site"), text(Kn, "seconds"),
           "", text(Kn, "launches"), text(Kn, "flops"), text(Kn, "bytes"),
           text(Kn, "confidence")});
  Out << OS.str();
  return true;
}

bool collect(const std::string &Dir, const Study &S, CollectResult &R,
             std::string &Error) {
  std::vector<Source> Sources;
  std::vector<std::string> Params;
  if (!S.Points.empty()) {
    for (const auto &P : S.Points) {
      ++R.Points;
      for (const auto &[K, V] : P.Values)
        if (std::find(SettingColumns.begin(), SettingColumns.end(), K) ==
                SettingColumns.end() &&
            std::find(Params.begin(), Params.end(), K) == Params.end())
          Params.push_back(K);
      if (pointState(Dir, P) == State::Done)
        Sources.push_back({P, pointDir(Dir, P) + "/report.json"});
    }
  } else {
    // A directory of reports: every *.json below it with our schema.
    std::vector<std::string> Files;
    std::error_code EC;
    for (auto It = fs::recursive_directory_iterator(Dir, EC);
         !EC && It != fs::recursive_directory_iterator(); It.increment(EC))
      if (It->is_regular_file() && It->path().extension() == ".json")
        Files.push_back(It->path().string());
    if (EC) {
      Error = Dir + ": cannot list it (" + EC.message() + ")";
      return false;
    }
    std::sort(Files.begin(), Files.end());
    for (const auto &F : Files) {
      std::string T;
      readFile(F, T);
      json J = json::parse(T, nullptr, false);
      if (J.is_discarded() || !J.is_object() ||
          J.value("schema", "") != "orrery-sim-report/1")
        continue;
      Point P;
      P.Index = Sources.size();
      P.Name = fs::relative(F, Dir).replace_extension("").string();
      ++R.Points;
      Sources.push_back({P, F});
    }
  }

  std::ostringstream OS;
  std::vector<std::string> Head = csvColumns(Params);
  for (std::size_t I = 0; I < Head.size(); ++I)
    OS << (I ? "," : "") << Head[I];
  OS << "\n";

  for (const auto &Src : Sources) {
    std::string T;
    if (!readFile(Src.ReportPath, T) ||
        !appendReportRows(T, Src.P, Params, OS, R.Rows)) {
      R.Problems.push_back(Src.ReportPath +
                           ": not a complete orrery-sim-report/1 report "
                           "(no breakdown); rerun the point");
      continue;
    }
    ++R.Collected;
  }
  // Nothing to gather: keep whatever results.csv is there.
  if (R.Collected == 0) {
    Error = R.Points == 0
                ? "no reports in " + Dir +
                      " (no sweep.json, no orrery-sim-report/1 JSON files); "
                      "give the -o DIR of a sweep or a directory of reports"
                : "none of the " + std::to_string(R.Points) + " points in " +
                      Dir + " has a complete report yet; " + Dir +
                      "/results.csv is left as it was (orrery-sweep status " +
                      Dir + " lists them)";
    return false;
  }
  return support::writeFileAtomically(Dir + "/results.csv", OS.str(), Error);
}

} // namespace orrery::sweep
