//===- SimCostsTest.cpp - RAMC costs from a machine file ------------------===//
#include "sim_costs.h"

#include "orrery/models/MachineFile.h"

#include <gtest/gtest.h>

using namespace ramc;
using namespace ramc::sim;

namespace {

orrery::models::Machine load(const char *Name) {
  orrery::models::ParsedFile F = orrery::models::loadMachineFile(
      std::string(ORRERY_MACHINES_DIR) + "/" + Name);
  EXPECT_TRUE(F.ok()) << Name;
  return F.M;
}

} // namespace

TEST(SimCosts, SlingshotIsCxiWithCounters) {
  orrery::models::Machine M = load("musica-h100.yaml");
  orrery::models::ParsedFile Net = orrery::models::loadMachineFile(
      std::string(ORRERY_MACHINES_DIR) + "/slingshot.yaml");
  ASSERT_TRUE(Net.ok());
  orrery::models::applyNetwork(M, Net.M);
  SimCosts C = SimCosts::fromMachine(M);
  EXPECT_EQ(C.Provider, "cxi");
  EXPECT_DOUBLE_EQ(C.Put.Seconds, 0.4e-6);
  EXPECT_DOUBLE_EQ(C.Get.Seconds, 0.4e-6);
  EXPECT_DOUBLE_EQ(C.Atomic.Seconds, 0.6e-6);
  EXPECT_DOUBLE_EQ(C.Completion.Seconds, 0.1e-6);
  EXPECT_DOUBLE_EQ(C.Registration.Seconds, 10e-6);
  EXPECT_TRUE(C.Put.Estimate);
  EXPECT_EQ(C.InjectSize, 192u);
  EXPECT_EQ(C.Notify, NotifyMode::MrCounter);
  // Batches are copied at the node's copy rate, an estimate there; a copy
  // of nothing costs nothing, and is no estimate.
  EXPECT_DOUBLE_EQ(C.copy(16e3).Seconds, M.Node.SharedMemory.copySeconds(16e3));
  EXPECT_GT(C.copy(16e3).Seconds, 0);
  EXPECT_TRUE(C.copy(16e3).Estimate);
  EXPECT_FALSE(C.copy(0).Estimate);
  EXPECT_EQ(C.str(), "put=0.4us get=0.4us atomic=0.6us completion=0.1us "
                     "registration=10us inject=192");
}

TEST(SimCosts, VerbsHasNoCounters) {
  SimCosts C = SimCosts::fromMachine(load("musica-h100.yaml"));
  EXPECT_EQ(C.Provider, "verbs;ofi_rxm");
  EXPECT_EQ(C.InjectSize, 64u);
  EXPECT_EQ(C.Notify, NotifyMode::CqData);
}

TEST(SimCosts, ProvidersAndModes) {
  EXPECT_EQ(notifyModeOf("cxi"), NotifyMode::MrCounter);
  EXPECT_EQ(notifyModeOf("sockets"), NotifyMode::MrCounter);
  EXPECT_EQ(notifyModeOf("shm"), NotifyMode::CqData);
  EXPECT_EQ(notifyModeOf(""), NotifyMode::CqData);

  SimCosts Cxi, Verbs;
  Cxi.Provider = "cxi";
  Cxi.Notify = NotifyMode::MrCounter;
  Verbs.Provider = "verbs;ofi_rxm";
  Verbs.Notify = NotifyMode::CqData;
  NotifyMode Out;
  std::string Err;
  ASSERT_TRUE(chooseNotifyMode(NotifyMode::Auto, Cxi, Out, Err));
  EXPECT_EQ(Out, NotifyMode::MrCounter);
  ASSERT_TRUE(chooseNotifyMode(NotifyMode::CqData, Cxi, Out, Err));
  EXPECT_EQ(Out, NotifyMode::CqData);
  ASSERT_TRUE(chooseNotifyMode(NotifyMode::Auto, Verbs, Out, Err));
  EXPECT_EQ(Out, NotifyMode::CqData);
  EXPECT_FALSE(chooseNotifyMode(NotifyMode::MrCounter, Verbs, Out, Err));
  EXPECT_NE(Err.find("verbs;ofi_rxm"), std::string::npos) << Err;
}

TEST(SimCosts, MissingSectionCostsNothing) {
  orrery::models::Machine M;
  SimCosts C = SimCosts::fromMachine(M);
  EXPECT_EQ(C.Provider, "unspecified");
  EXPECT_EQ(C.Put.Seconds, 0);
  EXPECT_EQ(C.InjectSize, 0u);
  EXPECT_EQ(C.Notify, NotifyMode::CqData);
}
