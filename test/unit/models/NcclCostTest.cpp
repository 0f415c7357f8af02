//===- NcclCostTest.cpp - NCCL's ring model
//---------------------------------===//
//
// Every expectation is computed by hand from NCCL's tuning constants (ring:
// base {6.6, 14.0, 8.4} us, per step over NVLink {0.6, 1.9, 3.4}, over the
// network {2.7, 4.0, 14.0} us; LL carries half the bandwidth, LL128
// 120/128) and round link figures: 100 GB/s between GPUs, 50 GB/s for a
// node's NICs, 12.5 GB/s one NIC.
//
//===----------------------------------------------------------------------===//

#include "orrery/models/NcclCost.h"
#include "orrery/models/MachineFile.h"

#include <gtest/gtest.h>

using namespace orrery::models;

namespace {

constexpr double Us = 1e-6;

NcclRing ring(int Ranks, int Nodes) {
  NcclRing R;
  R.Ranks = Ranks;
  R.Nodes = Nodes;
  R.IntraBandwidth = 100e9;
  R.PeerBandwidth = 100e9;
  R.InterBandwidth = 50e9;
  R.NicBandwidth = 12.5e9;
  return R;
}

TEST(NcclCostTest, LargeAllReduceRunsSimpleAtTheLinkBandwidth) {
  // 8 GPUs, one node, 1 GB: 2 x 7 steps; bytes 2 x 7/8 x 1e9 over 100 GB/s
  // = 17,500 us; latency 8.4 + 14 x 3.4 = 56 us.
  NcclEstimate E =
      ncclCollectiveTime(NcclCollective::AllReduce, 1e9, ring(8, 1));
  EXPECT_EQ(E.Protocol, NcclProtocol::Simple);
  EXPECT_NEAR(E.Seconds, 17556 * Us, 1e-9);
  EXPECT_DOUBLE_EQ(E.BusBandwidth, 100e9);
}

TEST(NcclCostTest, SmallAllReducePicksLL) {
  // 8 B on 8 GPUs: LL's latency 6.6 + 14 x 0.6 = 15 us beats LL128's
  // 14 + 14 x 1.9 = 40.6 us and Simple's 56 us; the bytes add 8 x 1.75 B /
  // 50 GB/s = 0.28 ns.
  NcclEstimate E = ncclCollectiveTime(NcclCollective::AllReduce, 8, ring(8, 1));
  EXPECT_EQ(E.Protocol, NcclProtocol::LL);
  EXPECT_NEAR(E.Seconds, 15 * Us + 14.0 / 50e9, 1e-12);
}

TEST(NcclCostTest, AcrossNodesTheNicsBoundTheRing) {
  // 16 GPUs on 2 nodes: 30 steps, 2 of them over the network; bus
  // bandwidth min(100, 50) GB/s. AllGather of 1.6 GB: 15 steps, 1 over the
  // network; 15/16 x 1.6e9 B / 50 GB/s = 30,000 us; Simple latency 8.4 +
  // 14 x 3.4 + 14 = 70 us.
  NcclEstimate G =
      ncclCollectiveTime(NcclCollective::AllGather, 1.6e9, ring(16, 2));
  EXPECT_EQ(G.Protocol, NcclProtocol::Simple);
  EXPECT_NEAR(G.Seconds, 30070 * Us, 1e-9);
  EXPECT_DOUBLE_EQ(G.BusBandwidth, 50e9);
  // Broadcast: pipelined, each hop carries the whole buffer once.
  NcclEstimate B =
      ncclCollectiveTime(NcclCollective::Broadcast, 1.6e9, ring(16, 2));
  EXPECT_NEAR(B.Seconds, 1.6e9 / 50e9 + 70 * Us, 1e-9);
}

TEST(NcclCostTest, ForcedProtocolAndPointToPoint) {
  // NCCL_PROTO=LL128 on 1 GB, 8 GPUs: 14 + 14 x 1.9 = 40.6 us + 1.75e9 B /
  // (100 GB/s x 120/128) = 18,666.67 us.
  NcclEstimate E = ncclCollectiveTime(NcclCollective::AllReduce, 1e9,
                                      ring(8, 1), NcclProtocol::LL128);
  EXPECT_EQ(E.Protocol, NcclProtocol::LL128);
  EXPECT_NEAR(E.Seconds, 40.6 * Us + 1.75e9 / (100e9 * 120.0 / 128.0), 1e-9);
  // A send between nodes: one NIC, one network step. Simple: 8.4 + 14 us +
  // 1e8 B / 12.5 GB/s = 8,022.4 us.
  NcclEstimate P = ncclPointToPointTime(1e8, /*SameNode=*/false, ring(16, 2));
  EXPECT_NEAR(P.Seconds, 8022.4 * Us, 1e-9);
  // One rank: only the base latency.
  NcclEstimate One =
      ncclCollectiveTime(NcclCollective::AllReduce, 1e9, ring(1, 1));
  EXPECT_NEAR(One.Seconds, 6.6 * Us, 1e-12);
}

TEST(NcclCostTest, ProtocolNames) {
  EXPECT_EQ(parseNcclProtocol("ll128"), NcclProtocol::LL128);
  EXPECT_EQ(parseNcclProtocol("SIMPLE"), NcclProtocol::Simple);
  EXPECT_FALSE(parseNcclProtocol("Tree").has_value());
}

TEST(NcclCostTest, RingOfAMachineFile) {
  // musica-h100: 4 GPUs, every pair 130 GB/s (three links per GPU in use:
  // 390 GB/s), one 24.756 GB/s NIC per GPU (99.024 GB/s a node).
  ParsedFile F =
      loadMachineFile(std::string(ORRERY_MACHINES_DIR) + "/musica-h100.yaml");
  ASSERT_TRUE(F.ok());
  NcclRing R = NcclRing::of(F.M, 8, 2);
  EXPECT_DOUBLE_EQ(R.IntraBandwidth, 390e9);
  EXPECT_DOUBLE_EQ(R.PeerBandwidth, 130e9);
  EXPECT_NEAR(R.InterBandwidth, 99.024e9, 1e3);
  EXPECT_TRUE(R.IntraNvlink);
}

} // namespace
