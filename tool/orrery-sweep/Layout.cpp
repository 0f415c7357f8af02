//===- Layout.cpp - orrery-sweep: the output directory --------------------===//

#include "Layout.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace orrery::sweep {

const char *stateName(State S) {
  switch (S) {
  case State::Pending:
    return "pending";
  case State::Started:
    return "interrupted";
  case State::Failed:
    return "failed";
  case State::Done:
    return "done";
  }
  return "?";
}

std::string pointDir(const std::string &Dir, const Point &P) {
  return Dir + "/points/" + P.Name;
}

json pointJson(const Point &P) {
  json Values = json::object();
  json Order = json::array();
  for (const auto &[K, V] : P.Values) {
    Values[K] = V;
    Order.push_back(K);
  }
  return {{"index", P.Index},
          {"name", P.Name},
          {"np", P.Np},
          {"values", Values},
          {"order", Order},
          {"run_args", P.RunArgs},
          {"program_stamp", P.ProgramStamp}};
}

Point pointFromJson(const json &J) {
  Point P;
  P.Index = J.at("index").get<std::size_t>();
  P.Name = J.at("name").get<std::string>();
  P.Np = J.at("np").get<int>();
  for (const auto &K : J.at("order"))
    P.Values.push_back(
        {K.get<std::string>(),
         J.at("values").at(K.get<std::string>()).get<std::string>()});
  P.RunArgs = J.at("run_args").get<std::vector<std::string>>();
  P.ProgramStamp = J.value("program_stamp", "");
  return P;
}

/// The same command on the same build of the program.
static bool sameCommand(const std::string &Dir, const Point &P) {
  std::string Text;
  if (!readFile(pointDir(Dir, P) + "/point.json", Text))
    return false;
  json J = json::parse(Text, nullptr, false);
  return !J.is_discarded() && J.is_object() && J.contains("run_args") &&
         J["run_args"] == json(P.RunArgs) &&
         J.value("program_stamp", "") == P.ProgramStamp;
}

int recordedStatus(const std::string &Dir, const Point &P) {
  std::string Text;
  if (!readFile(pointDir(Dir, P) + "/exit-status", Text))
    return -1;
  return std::atoi(Text.c_str());
}

State pointState(const std::string &Dir, const Point &P) {
  std::string D = pointDir(Dir, P);
  if (!sameCommand(Dir, P))
    return State::Pending;
  if (fs::exists(D + "/report.json"))
    return State::Done;
  if (fs::exists(D + "/exit-status") && recordedStatus(Dir, P) != 0)
    return State::Failed;
  if (fs::exists(D + "/log.txt"))
    return State::Started;
  return State::Pending;
}

bool writeSweepJson(const std::string &Dir, const Study &S,
                    std::string &Error) {
  json Points = json::array();
  for (const auto &P : S.Points)
    Points.push_back(pointJson(P));
  json J = {{"schema", "orrery-sweep/1"},
            {"study", fs::absolute(S.File).lexically_normal().string()},
            {"program", S.Program},
            {"varied", S.Varied},
            {"points", Points}};
  return support::writeFileAtomically(Dir + "/sweep.json", J.dump(2) + "\n",
                                      Error);
}

bool readSweepJson(const std::string &Dir, Study &S, std::string &Error) {
  std::string Path = Dir + "/sweep.json", Text;
  if (!readFile(Path, Text)) {
    Error = Path + ": cannot read it; is " + Dir +
            " a directory written by orrery-sweep STUDY.yaml -o " + Dir + "?";
    return false;
  }
  try {
    json J = json::parse(Text);
    S.File = J.at("study").get<std::string>();
    S.Program = J.at("program").get<std::string>();
    S.Varied = J.at("varied").get<std::vector<std::string>>();
    for (const auto &P : J.at("points"))
      S.Points.push_back(pointFromJson(P));
  } catch (const json::exception &E) {
    Error = Path + ": not a sweep description (" + std::string(E.what()) +
            "); rerun orrery-sweep STUDY.yaml -o " + Dir + " to rewrite it";
    return false;
  }
  return true;
}

} // namespace orrery::sweep
