//===- Compare.cpp - Lining up a measured and a predicted report ----------===//

#include "Compare.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace orrery::compare {

namespace {

using json = nlohmann::json;

/// Line and column (1-based) of byte offset \p Byte in \p Text.
std::pair<size_t, size_t> lineColumn(const std::string &Text, size_t Byte) {
  size_t Line = 1, Column = 1;
  for (size_t I = 0; I < Text.size() && I + 1 < Byte; ++I) {
    if (Text[I] == '\n') {
      ++Line;
      Column = 1;
    } else {
      ++Column;
    }
  }
  return {Line, Column};
}

bool number(const json &Obj, const std::string &Where, const std::string &Key,
            double &Out, std::string &Error) {
  auto It = Obj.find(Key);
  if (It == Obj.end()) {
    Error = Where + ": missing key '" + Key + "'";
    return false;
  }
  if (!It->is_number()) {
    Error = Where + ": '" + Key + "' must be a number";
    return false;
  }
  Out = It->get<double>();
  return true;
}

bool string(const json &Obj, const std::string &Where, const std::string &Key,
            std::string &Out, std::string &Error) {
  auto It = Obj.find(Key);
  if (It == Obj.end()) {
    Error = Where + ": missing key '" + Key + "'";
    return false;
  }
  if (!It->is_string()) {
    Error = Where + ": '" + Key + "' must be a string";
    return false;
  }
  Out = It->get<std::string>();
  return true;
}

/// Reads the array \p Key (optional) of site tables into \p Out, keyed by
/// what \p Name builds from each entry.
bool table(const json &J, const std::string &Path, const std::string &Key,
           double Ranks, bool WithApi,
           std::vector<std::pair<std::string, double>> &Out,
           std::string &Error) {
  auto It = J.find(Key);
  if (It == J.end())
    return true;
  if (!It->is_array()) {
    Error = Path + ": '" + Key + "' must be an array";
    return false;
  }
  std::map<std::string, size_t> Seen;
  for (size_t I = 0; I < It->size(); ++I) {
    const json &E = (*It)[I];
    std::string Where = Path + ": " + Key + "[" + std::to_string(I) + "]";
    if (!E.is_object()) {
      Error = Where + " must be an object";
      return false;
    }
    std::string Site, Api;
    double Seconds;
    if (!string(E, Where, "site", Site, Error) ||
        !number(E, Where, "seconds", Seconds, Error))
      return false;
    std::string Name = Site;
    if (WithApi) {
      if (!string(E, Where, "api", Api, Error))
        return false;
      Name = Api + " " + Site;
    } else if (E.contains("name") && E["name"].is_string()) {
      Name = E["name"].get<std::string>() + " " + Site;
    }
    // Two entries for one site (a kernel launched under two names at one
    // line, say) add up.
    auto [At, New] = Seen.try_emplace(Name, Out.size());
    if (New)
      Out.emplace_back(Name, Seconds / Ranks);
    else
      Out[At->second].second += Seconds / Ranks;
  }
  return true;
}

} // namespace

bool parseReport(const std::string &Path, const std::string &Text,
                 ReportTimes &Out, std::string &Error) {
  json J;
  try {
    J = json::parse(Text);
  } catch (const json::parse_error &E) {
    auto [Line, Column] = lineColumn(Text, E.byte);
    std::string What = E.what();
    // nlohmann's message: "[json.exception.parse_error.101] parse error at
    // line 3, column 5: syntax error ..."; keep what follows the position.
    size_t Colon = What.find(": ", What.find("parse error"));
    if (Colon != std::string::npos)
      What = What.substr(Colon + 2);
    Error = Path + ":" + std::to_string(Line) + ":" + std::to_string(Column) +
            ": not valid JSON: " + What;
    return false;
  } catch (const json::exception &E) {
    // A number beyond a double's range ("number overflow parsing ...").
    Error = Path + ": not valid JSON: " + E.what();
    return false;
  }
  if (!J.is_object()) {
    Error = Path + ": not a report (expected a JSON object from "
                   "orrery-run --report or ORRERY_REPORT)";
    return false;
  }
  std::string Schema;
  if (!string(J, Path, "schema", Schema, Error))
    return false;
  if (Schema.rfind("orrery-sim-report/", 0) != 0) {
    Error = Path + ": schema '" + Schema +
            "' is not orrery-sim-report/N (write reports with orrery-run "
            "--report or ORRERY_REPORT)";
    return false;
  }
  Out = ReportTimes();
  Out.Path = Path;
  // Native runs say "measured"; simulated reports carry no kind.
  Out.Kind = "predicted";
  if (auto K = J.find("kind"); K != J.end()) {
    if (!K->is_string() || (K->get<std::string>() != "measured" &&
                            K->get<std::string>() != "predicted")) {
      Error = Path +
              ": 'kind' must be \"measured\" (a native run's report) "
              "or \"predicted\", not " +
              K->dump();
      return false;
    }
    Out.Kind = K->get<std::string>();
  }
  if (!number(J, Path, "ranks", Out.Ranks, Error))
    return false;
  if (Out.Ranks <= 0) {
    Error = Path + ": 'ranks' must be positive";
    return false;
  }
  Out.WorldSize = Out.Ranks;
  if (auto W = J.find("world_size");
      W != J.end() && W->is_number() && W->get<double>() >= Out.Ranks)
    Out.WorldSize = W->get<double>();
  const char *TotalKey =
      J.contains("measured_seconds") ? "measured_seconds" : "simulated_seconds";
  if (!number(J, Path, TotalKey, Out.Total, Error))
    return false;
  auto B = J.find("breakdown");
  if (B == J.end()) {
    Error = Path + ": missing key 'breakdown'";
    return false;
  }
  if (!B->is_object()) {
    Error = Path + ": 'breakdown' must be an object of seconds per category";
    return false;
  }
  for (auto It = B->begin(); It != B->end(); ++It) {
    if (!It.value().is_number()) {
      Error = Path + ": breakdown." + It.key() + " must be a number";
      return false;
    }
    Out.Categories.emplace_back(It.key(), It.value().get<double>() / Out.Ranks);
  }
  return table(J, Path, "kernels", Out.Ranks, false, Out.Kernels, Error) &&
         table(J, Path, "sites", Out.Ranks, true, Out.Sites, Error);
}

bool readReport(const std::string &Path, ReportTimes &Out, std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = Path + ": cannot read (no such file, or not readable)";
    return false;
  }
  std::stringstream SS;
  SS << In.rdbuf();
  return parseReport(Path, SS.str(), Out, Error);
}

namespace {

/// Adds \p From (per rank of a report of \p Ranks ranks) into \p Into as
/// sums over ranks, keeping the order of first appearance.
void addRows(const std::vector<std::pair<std::string, double>> &From,
             double Ranks, std::vector<std::pair<std::string, double>> &Into) {
  for (const auto &[Name, Seconds] : From) {
    auto It =
        std::find_if(Into.begin(), Into.end(),
                     [&Name = Name](const auto &R) { return R.first == Name; });
    if (It == Into.end())
      Into.emplace_back(Name, Seconds * Ranks);
    else
      It->second += Seconds * Ranks;
  }
}

} // namespace

bool mergeReports(const std::vector<ReportTimes> &Parts, ReportTimes &Out,
                  std::string &Error) {
  if (Parts.empty()) {
    Error = "no measured report to merge";
    return false;
  }
  Out = ReportTimes();
  Out.Kind = Parts.front().Kind;
  Out.Ranks = 0;
  for (const ReportTimes &P : Parts) {
    if (P.Kind != Out.Kind) {
      Error = P.Path + ": a '" + P.Kind + "' report among '" + Out.Kind +
              "' ones (" + Parts.front().Path +
              "): give the measured reports of one run, then the predicted "
              "one last";
      return false;
    }
    Out.Path += (Out.Path.empty() ? "" : ", ") + P.Path;
    Out.Ranks += P.Ranks;
    Out.WorldSize = std::max(Out.WorldSize, P.WorldSize);
    // The run takes as long as its slowest rank.
    Out.Total = std::max(Out.Total, P.Total);
    addRows(P.Categories, P.Ranks, Out.Categories);
    addRows(P.Kernels, P.Ranks, Out.Kernels);
    addRows(P.Sites, P.Ranks, Out.Sites);
  }
  for (auto *Rows : {&Out.Categories, &Out.Kernels, &Out.Sites})
    for (auto &Row : *Rows)
      Row.second /= Out.Ranks;
  return true;
}

namespace {

void lineUp(const std::string &Group,
            const std::vector<std::pair<std::string, double>> &M,
            const std::vector<std::pair<std::string, double>> &P,
            std::vector<Row> &Rows) {
  std::map<std::string, double> PMap(P.begin(), P.end());
  std::map<std::string, double> MMap(M.begin(), M.end());
  for (const auto &[Name, Seconds] : M) {
    Row R{Group, Name, Seconds, std::nullopt, std::nullopt};
    auto It = PMap.find(Name);
    if (It != PMap.end())
      R.Predicted = It->second;
    Rows.push_back(R);
  }
  for (const auto &[Name, Seconds] : P)
    if (!MMap.count(Name))
      Rows.push_back(Row{Group, Name, std::nullopt, Seconds, std::nullopt});
}

} // namespace

std::vector<Row> compare(const ReportTimes &Measured,
                         const ReportTimes &Predicted) {
  std::vector<Row> Rows;
  Rows.push_back(
      Row{"total", "total", Measured.Total, Predicted.Total, std::nullopt});
  lineUp("category", Measured.Categories, Predicted.Categories, Rows);
  // A native run cannot split an MPI call into overhead, transfer and
  // waiting (it puts the whole call under network); the simulation can. The
  // sum of the MPI categories compares like with like.
  auto Sum = [](const ReportTimes &R,
                std::initializer_list<const char *> Keys) {
    std::optional<double> Total;
    for (const auto &[Name, Seconds] : R.Categories)
      for (const char *K : Keys)
        if (Name == K)
          Total = Total.value_or(0) + Seconds;
    return Total;
  };
  auto AddSum = [&](const char *Name,
                    std::initializer_list<const char *> Keys) {
    std::optional<double> M = Sum(Measured, Keys), P = Sum(Predicted, Keys);
    if (M || P)
      Rows.push_back(Row{"sum", Name, M, P, std::nullopt});
  };
  AddSum("mpi", {"network", "call_overhead", "host_bounce", "device_legs",
                 "reduction"});
  // Likewise kernels: a native run on a GPU times them on the device
  // (kernel_device) without the model's compute/memory split.
  if (Sum(Measured, {"kernel_device"}) || Sum(Predicted, {"kernel_device"}))
    AddSum("kernels", {"kernel_compute", "kernel_memory", "kernel_device"});
  lineUp("kernel", Measured.Kernels, Predicted.Kernels, Rows);
  lineUp("site", Measured.Sites, Predicted.Sites, Rows);
  // MPI's start-up and shut-down are outside both totals (a native run
  // measures from MPI_Init's return to MPI_Finalize's start, a simulation
  // starts its ranks initialised): their sites would only head the list.
  Rows.erase(
      std::remove_if(Rows.begin(), Rows.end(),
                     [](const Row &R) {
                       if (R.Group != "site")
                         return false;
                       for (const char *Api :
                            {"MPI_Init ", "MPI_Init_thread ", "MPI_Finalize "})
                         if (R.Name.rfind(Api, 0) == 0)
                           return true;
                       return false;
                     }),
      Rows.end());
  // A category both sides leave at zero says nothing.
  Rows.erase(std::remove_if(Rows.begin(), Rows.end(),
                            [](const Row &R) {
                              return R.Group == "category" &&
                                     R.Measured.value_or(0) == 0 &&
                                     R.Predicted.value_or(0) == 0;
                            }),
             Rows.end());
  for (Row &R : Rows)
    if (R.Measured && R.Predicted && *R.Measured > 0)
      R.Error = (*R.Predicted - *R.Measured) / *R.Measured;
  std::stable_sort(Rows.begin(), Rows.end(), [](const Row &A, const Row &B) {
    if (A.Error.has_value() != B.Error.has_value())
      return A.Error.has_value();
    if (!A.Error)
      return false;
    return std::fabs(*A.Error) > std::fabs(*B.Error);
  });
  return Rows;
}

std::optional<double> medianAbsError(const std::vector<Row> &Rows) {
  std::vector<double> E;
  for (const Row &R : Rows)
    if (R.Error)
      E.push_back(std::fabs(*R.Error));
  if (E.empty())
    return std::nullopt;
  std::sort(E.begin(), E.end());
  size_t N = E.size();
  return N % 2 ? E[N / 2] : (E[N / 2 - 1] + E[N / 2]) / 2;
}

nlohmann::ordered_json toJson(const ReportTimes &Measured,
                              const ReportTimes &Predicted,
                              const std::vector<Row> &Rows) {
  using OJ = nlohmann::ordered_json;
  auto Opt = [](const std::optional<double> &V) {
    return V ? OJ(*V) : OJ(nullptr);
  };
  OJ J;
  J["schema"] = "orrery-compare/1";
  J["measured"] = {{"file", Measured.Path},
                   {"kind", Measured.Kind},
                   {"ranks", Measured.Ranks},
                   {"world_size", Measured.WorldSize}};
  J["predicted"] = {{"file", Predicted.Path}, {"kind", Predicted.Kind}};
  J["median_abs_error"] = Opt(medianAbsError(Rows));
  OJ A = OJ::array();
  for (const Row &R : Rows)
    A.push_back({{"group", R.Group},
                 {"name", R.Name},
                 {"measured_seconds", Opt(R.Measured)},
                 {"predicted_seconds", Opt(R.Predicted)},
                 {"error", Opt(R.Error)}});
  J["rows"] = A;
  return J;
}

} // namespace orrery::compare
