//===- Manifest.cpp - Machine-readable record of every site ---------------===//

#include "orrery/passes/Manifest.h"
#include "orrery/passes/Instrumenter.h"

#include <nlohmann/json.hpp>

namespace orrery {

std::string manifestJson(const std::vector<Site> &Sites) {
  using nlohmann::json;
  json Records = json::array();
  json ByKind = json::object();
  unsigned Instrumented = 0, Skipped = 0;
  for (const Site &S : Sites) {
    json R = {{"id", S.Id},
              {"file", Instrumenter::displayPath(S.File)},
              {"line", S.Line},
              {"column", S.Column},
              {"kind", siteKindName(S.Kind).str()},
              {"api", S.Api},
              {"status", S.Instrumented ? "instrumented" : "skipped"}};
    if (!S.Callee.empty())
      R["callee"] = S.Callee;
    if (!S.Reason.empty())
      R["reason"] = S.Reason;
    if (!S.Buffers.empty()) {
      json Bufs = json::array();
      for (const BufferNote &B : S.Buffers) {
        json J = {{"role", B.Role}, {"form", B.Form}, {"ptr", B.Ptr}};
        J[B.Form == "bytes" ? "bytes" : "count"] = B.Count;
        if (!B.Datatype.empty())
          J["datatype"] = B.Datatype;
        Bufs.push_back(std::move(J));
      }
      R["buffers"] = std::move(Bufs);
    }
    if (S.Kind == SiteKind::Launch && S.Instrumented)
      R["launch"] = {{"grid", S.Launch.Grid},
                     {"block", S.Launch.Block},
                     {"shmem", S.Launch.Shmem},
                     {"stream", S.Launch.Stream},
                     {"hinted", S.Hinted}};
    Records.push_back(std::move(R));
    std::string Kind = siteKindName(S.Kind).str();
    if (!ByKind.contains(Kind))
      ByKind[Kind] = {{"instrumented", 0}, {"skipped", 0}};
    ByKind[Kind][S.Instrumented ? "instrumented" : "skipped"] =
        ByKind[Kind][S.Instrumented ? "instrumented" : "skipped"].get<int>() +
        1;
    (S.Instrumented ? Instrumented : Skipped)++;
  }
  json Doc = {{"version", 1},
              {"hook_abi", 1},
              {"sites", std::move(Records)},
              {"summary",
               {{"sites", Sites.size()},
                {"instrumented", Instrumented},
                {"skipped", Skipped},
                {"by_kind", std::move(ByKind)}}}};
  return Doc.dump(2) + "\n";
}

} // namespace orrery
