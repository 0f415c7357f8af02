//===- Collect.cpp - orrery-sweep: reports into one tidy CSV --------------===//

#include "Collect.h"
#include "Layout.h"
#include "Study.h"
#include "orrery/formats/Formats.h"
#include "orrery/formats/ReportCheck.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
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

namespace F = formats::report;
namespace Col = formats::column;

/// The value of report field \p Id (ReportFields.def), at the top or in an
/// object at the top ("" if absent, and for "None"; test/unit/formats checks
/// that the lists name only such fields).
std::string field(const json &J, const char *Id) {
  for (const formats::ReportField &Fd : formats::reportFields()) {
    if (std::strcmp(Fd.Id, Id) != 0)
      continue;
    if (std::strcmp(Fd.Parent, "Root") == 0)
      return text(J, Fd.Key);
    for (const formats::ReportField &P : formats::reportFields())
      if (std::strcmp(P.Id, Fd.Parent) == 0 && J.contains(P.Key) &&
          J[P.Key].is_object())
        return text(J[P.Key], Fd.Key);
  }
  return "";
}

struct Source {
  Point P;
  std::string ReportPath;
};

} // namespace

std::vector<std::string> csvColumns(const std::vector<std::string> &Params) {
  std::vector<std::string> Head = {"point", "point_name"};
  for (const formats::SweepSetting &S : formats::sweepSettings())
    Head.push_back(S.Key);
  Head.insert(Head.end(), Params.begin(), Params.end());
  for (const formats::ResultsColumn &C : formats::resultsColumns())
    Head.push_back(C.Column);
  return Head;
}

bool appendReportRows(const std::string &Report, const Point &P,
                      const std::vector<std::string> &Params, std::ostream &Out,
                      std::size_t &Rows) {
  json J = json::parse(Report, nullptr, false);
  if (J.is_discarded() || !J.is_object() || !J.contains(F::Breakdown) ||
      !J[F::Breakdown].is_object())
    return false;
  std::ostringstream OS;
  std::vector<std::string> Common = {std::to_string(P.Index), P.Name};
  // A setting the point does not give is what the report says ran
  // (SweepSettings.def's From).
  for (const formats::SweepSetting &S : formats::sweepSettings()) {
    std::string V = P.value(S.Key);
    Common.push_back(V.empty() ? field(J, S.From) : V);
  }
  for (const auto &K : Params)
    Common.push_back(P.value(K));
  for (const formats::ResultsColumn &C : formats::resultsColumns())
    if (std::strcmp(C.From, "Row") != 0)
      Common.push_back(field(J, C.From));
  // The row's own columns, by name, in ResultsColumns.def's order.
  auto row = [&](std::map<std::string, std::string> Own) {
    std::vector<std::string> All = Common;
    for (const formats::ResultsColumn &C : formats::resultsColumns())
      if (std::strcmp(C.From, "Row") == 0)
        All.push_back(Own[C.Column]);
    for (std::size_t I = 0; I < All.size(); ++I)
      OS << (I ? "," : "") << csvField(All[I]);
    OS << "\n";
    ++Rows;
  };
  // A report edited by hand may carry anything: a missing or non-numeric
  // rank count divides by one.
  double Ranks = J.contains(F::Ranks) && J[F::Ranks].is_number()
                     ? J[F::Ranks].get<double>()
                     : 1.0,
         Sum = 0;
  if (!(Ranks > 0))
    Ranks = 1;
  for (const auto &[K, V] : J[F::Breakdown].items())
    if (V.is_number())
      Sum += V.get<double>();
  for (const auto &[K, V] : J[F::Breakdown].items()) {
    if (!V.is_number())
      continue;
    double Sec = V.get<double>();
    row({{Col::Kind, "category"},
         {Col::Name, K},
         {Col::Seconds, num(Sec / Ranks)},
         {Col::Share, Sum > 0 ? num(Sec / Sum) : "0"}});
  }
  if (J.contains(F::Kernels) && J[F::Kernels].is_array())
    for (const auto &Kn : J[F::Kernels])
      row({{Col::Kind, "kernel"},
           {Col::Name, text(Kn, F::KernelName)},
           {Col::Site, text(Kn, F::KernelSite)},
           {Col::Seconds, text(Kn, F::KernelSeconds)},
           {Col::Launches, text(Kn, F::KernelLaunches)},
           {Col::Flops, text(Kn, F::KernelFlops)},
           {Col::Bytes, text(Kn, F::KernelBytes)},
           {Col::Confidence, text(Kn, F::KernelConfidence)}});
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
        if (!isSetting(K) &&
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
      std::string NotOurs;
      if (J.is_discarded() || !formats::checkReportSchema(J, NotOurs))
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
      R.Problems.push_back(Src.ReportPath + ": not a complete " +
                           formats::ReportSchema +
                           " report (no breakdown); rerun the point");
      continue;
    }
    ++R.Collected;
  }
  // Nothing to gather: keep whatever results.csv is there.
  if (R.Collected == 0) {
    Error = R.Points == 0
                ? "no reports in " + Dir + " (no sweep.json, no " +
                      formats::ReportSchema +
                      " JSON files); give the -o DIR of a sweep or a "
                      "directory of reports"
                : "none of the " + std::to_string(R.Points) + " points in " +
                      Dir + " has a complete report yet; " + Dir +
                      "/results.csv is left as it was (orrery-sweep status " +
                      Dir + " lists them)";
    return false;
  }
  return support::writeFileAtomically(Dir + "/results.csv", OS.str(), Error);
}

} // namespace orrery::sweep
