//===- ReportFuzzer.cpp - libFuzzer target: the report readers ------------===//
//
// Any bytes given as a simulation report to its three C++ readers -- the
// printer of orrery-run, the reader of orrery-compare and the collector of
// orrery-sweep -- give a result or an error: never a crash, an exception or
// a hang. The collector's rows have exactly one field per results.csv
// column, however the report's strings are made.
//
//===----------------------------------------------------------------------===//

#include "Collect.h"
#include "Compare.h"
#include "ReportPrinter.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

namespace {

// Whether every record of the RFC 4180 text \p Csv has \p Fields fields.
bool checkRecords(const std::string &Csv, std::size_t Fields) {
  std::size_t N = 1;
  bool Quoted = false;
  for (std::size_t I = 0; I < Csv.size(); ++I) {
    char C = Csv[I];
    if (Quoted) {
      if (C == '"' && I + 1 < Csv.size() && Csv[I + 1] == '"')
        ++I;
      else if (C == '"')
        Quoted = false;
    } else if (C == '"') {
      Quoted = true;
    } else if (C == ',') {
      ++N;
    } else if (C == '\n') {
      if (N != Fields)
        return false;
      N = 1;
    }
  }
  return !Quoted && (Csv.empty() || Csv.back() == '\n');
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data,
                                      std::size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);

  orrery::compare::ReportTimes Times;
  std::string Error;
  orrery::compare::parseReport("fuzz.json", Text, Times, Error);

  nlohmann::json J = nlohmann::json::parse(Text, nullptr, false);
  if (!J.is_discarded()) {
    std::ostringstream Printed;
    orrery::run::printReport(J, Printed, Error);
    orrery::run::reportExitStatus(J);
  }

  orrery::sweep::Point P;
  P.Index = 3;
  P.Name = "np-4";
  P.Values = {{"np", "4"}, {"nx", "1,024"}};
  std::vector<std::string> Params = {"nx"};
  std::ostringstream Rows;
  std::size_t Count = 0;
  if (orrery::sweep::appendReportRows(Text, P, Params, Rows, Count) &&
      !checkRecords(Rows.str(), orrery::sweep::csvColumns(Params).size()))
    std::abort(); // a ragged results.csv
  return 0;
}
