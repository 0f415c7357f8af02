//===- Main.cpp - orrery-compare: measured vs predicted, row by row -------===//
//
//   orrery-compare [--json] MEASURED.json [MEASURED.json...] PREDICTED.json
//
// Several measured reports are the per-rank reports of one native run
// (ORRERY_REPORT=m-%r.json): they are merged, times per rank over all.
//
// Prints the total, each category, each kernel site and each call site the
// two reports share, with the relative error (predicted - measured) /
// measured, worst rows first. See docs/compare.md.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

using namespace orrery::compare;

namespace {

const char *Usage =
    "usage: orrery-compare [--json] MEASURED.json [MEASURED.json...] "
    "PREDICTED.json\n"
    "\n"
    "Lines up two reports in the orrery-run --report schema (a native run's\n"
    "ORRERY_REPORT, a simulation's --report): the total, each category, each\n"
    "kernel site and each call site, in seconds per rank, with the relative\n"
    "error (predicted - measured) / measured, worst rows first. Several\n"
    "measured reports (one per rank of a native run, ORRERY_REPORT=m-%r.json)\n"
    "are merged: the mean over their ranks, the total of the slowest.\n"
    "\n"
    "  --json   print the comparison as JSON (schema orrery-compare/1)\n"
    "  --help   print this help\n";

int usageError(const std::string &Msg) {
  std::cerr << "orrery-compare: error: " << Msg
            << "\n(run 'orrery-compare --help' for usage)\n";
  return 2;
}

std::string seconds(const std::optional<double> &S) {
  if (!S)
    return "-";
  double V = *S, A = std::fabs(V);
  const char *Unit = "s";
  if (A == 0) {
    Unit = "s";
  } else if (A < 1e-6) {
    V *= 1e9;
    Unit = "ns";
  } else if (A < 1e-3) {
    V *= 1e6;
    Unit = "us";
  } else if (A < 1) {
    V *= 1e3;
    Unit = "ms";
  }
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.3f %s", V, Unit);
  return Buf;
}

std::string percent(const std::optional<double> &E) {
  if (!E)
    return "-";
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%+.1f%%", *E * 100);
  return Buf;
}

std::string pad(const std::string &S, size_t W, bool Right = false) {
  if (S.size() >= W)
    return S;
  return Right ? std::string(W - S.size(), ' ') + S
               : S + std::string(W - S.size(), ' ');
}

void printText(const ReportTimes &M, const ReportTimes &P,
               const std::vector<Row> &Rows) {
  std::cout << "Orrery comparison\n"
            << "  measured   " << M.Path << " (" << M.Kind << ")\n"
            << "  predicted  " << P.Path << " (" << P.Kind << ")\n\n"
            << "Rows, worst first (seconds per rank; error = (predicted - "
               "measured) / measured)\n";
  auto Label = [](const Row &R) {
    return R.Group == R.Name ? R.Name : R.Group + " " + R.Name;
  };
  size_t NameW = 4;
  for (const Row &R : Rows)
    NameW = std::max(NameW, Label(R).size());
  std::cout << "  " << pad("row", NameW) << "  " << pad("measured", 12, true)
            << "  " << pad("predicted", 12, true) << "  "
            << pad("error", 8, true) << "\n";
  for (const Row &R : Rows)
    std::cout << "  " << pad(Label(R), NameW) << "  "
              << pad(seconds(R.Measured), 12, true) << "  "
              << pad(seconds(R.Predicted), 12, true) << "  "
              << pad(percent(R.Error), 8, true) << "\n";
  auto Med = medianAbsError(Rows);
  size_t N = 0;
  for (const Row &R : Rows)
    N += R.Error.has_value();
  if (M.Ranks < M.WorldSize)
    std::cout << "\nnote: the measured reports cover " << M.Ranks << " of "
              << M.WorldSize
              << " ranks; rows of code only some ranks run compare those "
                 "ranks with the mean of all predicted ranks (give every "
                 "rank's report: ORRERY_REPORT=m-%r.json)\n";
  std::cout << "\nmedian |error| over " << N
            << " rows: " << (Med ? percent(Med).substr(1) : std::string("-"))
            << "\n";
}

} // namespace

int main(int Argc, char **Argv) {
  bool Json = false;
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--help" || A == "-h") {
      std::cout << Usage;
      return 0;
    }
    if (A == "--json") {
      Json = true;
    } else if (A.size() > 1 && A[0] == '-') {
      return usageError("unknown option '" + A + "'");
    } else {
      Files.push_back(A);
    }
  }
  if (Files.size() < 2)
    return usageError(
        "expected two reports, MEASURED.json PREDICTED.json (got " +
        std::to_string(Files.size()) + ")");
  std::vector<ReportTimes> Parts(Files.size() - 1);
  ReportTimes M, P;
  std::string Error;
  bool Read = true;
  for (size_t I = 0; Read && I + 1 < Files.size(); ++I)
    Read = readReport(Files[I], Parts[I], Error);
  if (Read)
    Read = readReport(Files.back(), P, Error);
  if (Read) {
    if (Parts.size() == 1)
      M = Parts.front();
    else
      Read = mergeReports(Parts, M, Error);
  }
  // Measured first, predicted last: a swapped pair, or one report given
  // twice, would print errors that mean nothing.
  if (Read && M.Kind == "predicted" && P.Kind == "measured") {
    Error = "the measured report (" + P.Path +
            ") comes last; give MEASURED.json first, PREDICTED.json last";
    Read = false;
  } else if (Read && M.Kind == "predicted") {
    Error = M.Path +
            " is a predicted report (no \"kind\": \"measured\"); "
            "the first report(s) must be measured ones, from a native run "
            "(ORRERY_REPORT)";
    Read = false;
  } else if (Read && P.Kind == "measured") {
    Error = P.Path + " is a measured report; the last one must be the "
                     "prediction (orrery-run --report)";
    Read = false;
  }
  if (!Read) {
    std::cerr << "orrery-compare: error: " << Error << "\n";
    return 1;
  }
  std::vector<Row> Rows = compare(M, P);
  if (Json)
    std::cout << toJson(M, P, Rows).dump(2) << "\n";
  else
    printText(M, P, Rows);
  return 0;
}
