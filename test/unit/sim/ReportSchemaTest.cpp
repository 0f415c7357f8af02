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
#include <memory>
#include <vector>
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

// Events are counted from the rows: launches from the kernel rows, copies
// and MPI messages and collectives from the call sites, by the API tables'
// classes; receives, waits and other calls are none.
TEST(ReportSchema, EventsCountedFromTheRows) {
  Report R;
  R.kernel("k a.cu:9").Launches = 7;
  auto Site = [&R](unsigned Line, const char *Api, unsigned long long Calls) {
    // Site records live as long as the report (ranks keep pointers).
    static std::vector<std::unique_ptr<orrery_site>> Records;
    Records.push_back(std::make_unique<orrery_site>(orrery_site{
        ORRERY_HOOK_ABI_VERSION, Line, "a.cu", Line, 1, ORRERY_KIND_MPI, Api,
        nullptr}));
    R.siteRow(Records.back().get())->Calls = Calls;
  };
  Site(10, "MPI_Isend", 4);
  Site(11, "MPI_Irecv", 4);
  Site(12, "MPI_Waitall", 2);
  Site(13, "MPI_Sendrecv", 3);
  Site(14, "MPI_Allreduce", 5);
  Site(15, "MPI_Iallreduce", 1);
  Site(16, "cudaMemcpyAsync", 6);
  Site(17, "cudaMemsetAsync", 2);
  Site(18, "cudaStreamSynchronize", 9);
  Report::Summary S;
  S.Ranks = 1;
  S.WallSeconds = 2;
  nlohmann::json E = written(R, S)["events"];
  EXPECT_EQ(E["kernels"], 7);
  EXPECT_EQ(E["copies"], 6 + 2);
  EXPECT_EQ(E["mpi_messages"], 4 + 3);
  EXPECT_EQ(E["mpi_collectives"], 5 + 1);
  EXPECT_EQ(E["per_wall_second"], (7 + 8 + 7 + 6) / 2.0);
}

TEST(ReportSchema, EmptyRun) {
  Report R;
  Report::Summary S;
  S.Ranks = 1;
  expectFollowsSchema(written(R, S));
}

} // namespace
