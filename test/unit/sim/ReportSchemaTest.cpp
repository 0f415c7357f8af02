//===- ReportSchemaTest.cpp - The simulator's report follows its schema ---===//
//
// Every field runtime/sim writes is listed in formats/.../ReportFields.def
// and every field a predicted report always has is written: a field added
// to the writer alone fails here, naming the .def to add it to.
//
//===----------------------------------------------------------------------===//

#include "orrery/formats/ReportCheck.h"
#include "report/Accounting.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace orrery::sim;

namespace {

nlohmann::json written(const Report &R, const Report::Summary &S) {
  std::string Path =
      "/tmp/orrery-report-schema-test-" + std::to_string(getpid()) + ".json";
  std::string Error;
  EXPECT_TRUE(R.writeJson(Path, S, Error)) << Error;
  std::ifstream In(Path);
  nlohmann::json J = nlohmann::json::parse(In);
  std::remove(Path.c_str());
  return J;
}

void expectFollowsSchema(const nlohmann::json &J) {
  std::string Error;
  EXPECT_TRUE(orrery::formats::checkReport(
      J, orrery::formats::CheckMode::Written, Error))
      << Error << "\n"
      << J.dump(2);
}

TEST(ReportSchema, EveryTableFilled) {
  Report R;
  KernelTotals &K = R.kernel("jacobi a.cu:9");
  K.Name = "jacobi";
  K.Site = "a.cu:9";
  K.Launches = 10;
  K.Seconds = 1e-3;
  K.Confidence = 1;
  DeviceReadTotals &D = R.deviceRead("a.cu:20:3");
  D.Site = "a.cu:20:3";
  D.Via = "main.cu:7";
  D.Api = "cudaMemcpy";
  D.Type = "double";
  D.Value = D.Last = "0.5";
  D.Source = "--device-value";
  D.Reads = 3;
  static const orrery_site Site = {
      ORRERY_HOOK_ABI_VERSION, 1,        "a.cu",  9, 3,
      ORRERY_KIND_LAUNCH,      "<<<>>>", "jacobi"};
  R.siteRow(&Site)->Calls = 10;
  R.warn("something not modelled");
  Report::Summary S;
  S.MachineName = "m";
  S.MachineFile = "m.yaml";
  S.NetworkMode = "flows";
  S.Ranks = S.Nodes = S.RanksPerNode = 1;
  S.HostCompute = true;
  S.Total.add(Category::Nccl, 1e-4, false);
  S.Failure = "rank 0 exited with 3";
  S.FailureStatus = 3;
  S.FailedRanks = {"rank 0: in MPI_Recv at a.cu:30"};
  nlohmann::json J = written(R, S);
  expectFollowsSchema(J);
  EXPECT_TRUE(J["breakdown"].contains("host_compute"));
  EXPECT_TRUE(J["breakdown"].contains("nccl"));
  EXPECT_EQ(J["device_reads"][0]["via"], "main.cu:7");
}

TEST(ReportSchema, EmptyRun) {
  Report R;
  Report::Summary S;
  S.Ranks = 1;
  expectFollowsSchema(written(R, S));
}

} // namespace
