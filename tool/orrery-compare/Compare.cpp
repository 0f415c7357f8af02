//===- Compare.cpp - Lining up a measured and a predicted report ----------===//

#include "Compare.h"
#include "orrery/formats/Formats.h"
#include "orrery/formats/ReportCheck.h"
#include "orrery/support/ReadFile.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace orrery::compare {

namespace {

using json = nlohmann::json;
namespace F = formats::report;

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

/// Reads the table \p Key (checked against the schema) into \p Out, keyed
/// by the row's site and its api (\p WithApi) or kernel name.
void table(const json &J, const char *Key, double Ranks, bool WithApi,
           std::vector<std::pair<std::string, double>> &Out) {
  auto It = J.find(Key);
  if (It == J.end())
    return;
  std::map<std::string, size_t> Seen;
  for (const json &E : *It) {
    // Kernel and site rows have the same site and seconds keys.
    std::string Site = E[F::SiteWhere].get<std::string>();
    double Seconds = E[F::SiteSeconds].get<double>();
    std::string Name = Site;
    if (WithApi)
      Name = E[F::SiteApi].get<std::string>() + " " + Site;
    else if (E.contains(F::KernelName))
      Name = E[F::KernelName].get<std::string>() + " " + Site;
    // Two entries for one site (a kernel launched under two names at one
    // line, say) add up.
    auto [At, New] = Seen.try_emplace(Name, Out.size());
    if (New)
      Out.emplace_back(Name, Seconds / Ranks);
    else
      Out[At->second].second += Seconds / Ranks;
  }
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
  // Types and the fields every reader needs, against the schema: below,
  // what is there has the schema's type.
  if (!formats::checkReport(J, formats::CheckMode::Read, Error)) {
    Error = Path + ": " + Error;
    return false;
  }
  Out = ReportTimes();
  Out.Path = Path;
  // Native runs say "measured"; simulated reports carry no kind.
  Out.Kind = formats::isMeasuredReport(J) ? "measured" : "predicted";
  Out.Ranks = J[F::Ranks].get<double>();
  Out.WorldSize = Out.Ranks;
  if (auto W = J.find(F::WorldSize);
      W != J.end() && W->get<double>() >= Out.Ranks)
    Out.WorldSize = W->get<double>();
  Out.Total = J.value(F::MeasuredSeconds, J.value(F::SimulatedSeconds, 0.0));
  for (const auto &[Key, Seconds] : J[F::Breakdown].items())
    Out.Categories.emplace_back(Key, Seconds.get<double>() / Out.Ranks);
  table(J, F::Kernels, Out.Ranks, false, Out.Kernels);
  table(J, F::Sites, Out.Ranks, true, Out.Sites);
  return true;
}

bool readReport(const std::string &Path, ReportTimes &Out, std::string &Error) {
  std::string Text, Reason;
  if (!support::readFile(Path, Text, &Reason)) {
    Error = Path + ": cannot read (" + Reason + ")";
    return false;
  }
  return parseReport(Path, Text, Out, Error);
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
  // The categories of one "sum" group (ReportCategories.def), added up.
  auto Sum = [](const ReportTimes &R, const std::string &Group) {
    std::optional<double> Total;
    for (const auto &[Name, Seconds] : R.Categories)
      for (const formats::ReportCategory &C : formats::reportCategories())
        if (Group == C.Sum && Name == C.Key)
          Total = Total.value_or(0) + Seconds;
    return Total;
  };
  auto Has = [&](const formats::ReportCategory &C) {
    auto In = [&C](const ReportTimes &R) {
      return std::any_of(R.Categories.begin(), R.Categories.end(),
                         [&C](const auto &E) { return E.first == C.Key; });
    };
    return In(Measured) || In(Predicted);
  };
  // MPI's parts; kernels' compute/memory split only where a native run
  // timed them on the device (a category only it has: kernel_device).
  std::vector<std::string> Groups;
  for (const formats::ReportCategory &C : formats::reportCategories())
    if (*C.Sum &&
        std::find(Groups.begin(), Groups.end(), C.Sum) == Groups.end())
      Groups.push_back(C.Sum);
  for (const std::string &G : Groups) {
    bool Shown = true;
    for (const formats::ReportCategory &C : formats::reportCategories())
      if (G == C.Sum && C.MeasuredOnly)
        Shown = Has(C);
    std::optional<double> M = Sum(Measured, G), P = Sum(Predicted, G);
    if (Shown && (M || P))
      Rows.push_back(Row{"sum", G, M, P, std::nullopt});
  }
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
