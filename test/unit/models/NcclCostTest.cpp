//===- NcclCostTest.cpp - NCCL's tuning model -----------------------------===//
//
// Every expectation is computed by hand from NCCL 2.23.4's tuning constants
// (src/graph/tuning.cc: base latency Tree {6.8, 14.0, 8.4}, Ring {6.6, 14.0,
// 8.4} us; per hop over NVLink Tree {0.6, 1.25, 4.0}, Ring {0.6, 1.9, 3.4};
// over the network Tree {5.0, 8.5, 14}, Ring {2.7, 4.0, 14.0} us; LL at half
// the bus bandwidth up to llMaxBws, LL128 at 0.92; the tree at 0.92 x 0.5
// with its size correction) and round link figures: 100 GB/s inside a
// node, 50 GB/s for a node's NICs, 12.5 GB/s one NIC, an Ampere GPU.
//
//===----------------------------------------------------------------------===//

#include "orrery/models/NcclCost.h"
#include "orrery/models/MachineFile.h"

#include <gtest/gtest.h>

using namespace orrery::models;

namespace {

constexpr double Us = 1e-6;

NcclSystem sys(int Ranks, int Nodes) {
  NcclSystem S;
  S.Ranks = Ranks;
  S.Nodes = Nodes;
  S.IntraBandwidth = 100e9;
  S.PeerBandwidth = 100e9;
  S.InterBandwidth = 50e9;
  S.NicBandwidth = 12.5e9;
  S.ComputeCapability = 80;
  return S;
}

NcclSelection select(const char *Algo, const char *Proto) {
  NcclSelection S;
  std::string Error;
  if (Algo)
    EXPECT_TRUE(S.setAlgorithms(Algo, Error)) << Error;
  if (Proto)
    EXPECT_TRUE(S.setProtocols(Proto, Error)) << Error;
  return S;
}

TEST(NcclCostTest, LargeAllReduceRunsTheRingSimpleAtTheLinkBandwidth) {
  // 8 GPUs, one node, 1 GB: 2 x 7 steps; bytes 2 x 7/8 x 1e9 over 100 GB/s
  // = 17,500 us; latency 8.4 + 14 x 3.4 = 56 us. The tree would take
  // 1e9 / (100 x 0.92 x 0.5 GB/s) = 21,739 us; LL128 19,022 us.
  NcclEstimate E =
      ncclCollectiveTime(NcclCollective::AllReduce, 1e9, sys(8, 1));
  EXPECT_EQ(E.Algorithm, NcclAlgorithm::Ring);
  EXPECT_EQ(E.Protocol, NcclProtocol::Simple);
  EXPECT_NEAR(E.Seconds, 17556 * Us, 1e-9);
  EXPECT_DOUBLE_EQ(E.BusBandwidth, 100e9);
  // What the simulation runs as flows: 1.75 GB from each GPU at 100 GB/s
  // after the 56 us of latency.
  EXPECT_NEAR(E.Latency, 56 * Us, 1e-12);
  EXPECT_DOUBLE_EQ(E.LinkBytes, 1.75e9);
  EXPECT_NEAR(E.linkRate(), 100e9, 1e3);
}

TEST(NcclCostTest, SmallAllReducePicksTheRingLL) {
  // 8 B on 8 GPUs: the ring's LL latency 6.6 + 14 x 0.6 = 15 us beats the
  // tree's LL 6.8 + 2 x 7 x 0.6 = 15.2 us, LL128's 40.6 us and Simple's
  // 56 us; the bytes add 8 x 1.75 B / 50 GB/s = 0.28 ns.
  NcclEstimate E = ncclCollectiveTime(NcclCollective::AllReduce, 8, sys(8, 1));
  EXPECT_EQ(E.Algorithm, NcclAlgorithm::Ring);
  EXPECT_EQ(E.Protocol, NcclProtocol::LL);
  EXPECT_NEAR(E.Seconds, 15 * Us + 14.0 / 50e9, 1e-12);
}

TEST(NcclCostTest, AcrossNodesTheNicsBoundTheRing) {
  // 16 GPUs on 2 nodes: bus bandwidth min(100, 50) GB/s. AllGather of
  // 1.6 GB: 15 steps, 1 over the network; 15/16 x 1.6e9 B / 50 GB/s =
  // 30,000 us; Simple latency 8.4 + 14 x max(3.4, 3 x 1 us of network
  // overhead) + 14 = 70 us.
  NcclEstimate G =
      ncclCollectiveTime(NcclCollective::AllGather, 1.6e9, sys(16, 2));
  EXPECT_EQ(G.Protocol, NcclProtocol::Simple);
  EXPECT_NEAR(G.Seconds, 30070 * Us, 1e-9);
  EXPECT_DOUBLE_EQ(G.BusBandwidth, 50e9);
  // Broadcast: pipelined, each hop carries the whole buffer once; 16 steps
  // at the network's per-chunk latency (the tree's Simple hop, 14 us):
  // 8.4 + 16 x 14 = 232.4 us.
  NcclEstimate B =
      ncclCollectiveTime(NcclCollective::Broadcast, 1.6e9, sys(16, 2));
  EXPECT_NEAR(B.Seconds, 1.6e9 / 50e9 + 232.4 * Us, 1e-9);
}

TEST(NcclCostTest, TheTreeWinsMidSizesOnManyNodes) {
  // 32 GPUs on 4 nodes, AllReduce of 64 KiB. Tree LL: latency 6.8 + 2 x
  // (7 x 0.6 + log2(4) x 5.0) = 35.2 us; bandwidth 50 x 0.92 / 3.8 GB/s
  // (under LL's 20.4 GB/s limit for more than two Intel nodes), x 0.5, x
  // the size correction 0.6 (log2(65536 / 64) = 10). The ring's LL pays
  // 6.6 + 56 x max(0.6, 1 us) + 6 x 2.7 = 78.8 us of latency.
  double TreeBw = 50e9 * 0.92 / 3.8 * 0.5 * 0.6;
  NcclEstimate E =
      ncclCollectiveTime(NcclCollective::AllReduce, 65536, sys(32, 4));
  EXPECT_EQ(E.Algorithm, NcclAlgorithm::Tree);
  EXPECT_EQ(E.Protocol, NcclProtocol::LL);
  EXPECT_NEAR(E.Seconds, 35.2 * Us + 65536 / TreeBw, 1e-11);
  // NCCL_ALGO=Ring: the ring's LL, at min(20.4, 50 x 0.5) GB/s bus
  // bandwidth, x 32 / 62 steps.
  NcclEstimate R = ncclCollectiveTime(NcclCollective::AllReduce, 65536,
                                      sys(32, 4), select("Ring", nullptr));
  EXPECT_EQ(R.Algorithm, NcclAlgorithm::Ring);
  EXPECT_NEAR(R.Seconds, 78.8 * Us + 65536 / (20.4e9 * 32 / 62), 1e-11);
}

TEST(NcclCostTest, NvlinkSharpReducesInTheSwitches) {
  // 8 Hopper GPUs of 370.8 GB/s links on NVLS switches, AllReduce of 8 GiB:
  // each GPU moves 9/8 of the buffer each way at NCCL's 5/6: algorithm
  // bandwidth 370.8 x 5/6 x 8/9 = 274.67 GB/s, bus bandwidth x 14/8 =
  // 480.67 GB/s; latency 25 us. The ring would run at 370.8 GB/s.
  NcclSystem S = sys(8, 1);
  S.IntraBandwidth = 370.8e9;
  S.ComputeCapability = 90;
  S.Nvls = true;
  double Bytes = 8.0 * (1 << 30);
  double AlgBw = 370.8e9 * 5 / 6 * 8 / 9;
  NcclEstimate E = ncclCollectiveTime(NcclCollective::AllReduce, Bytes, S);
  EXPECT_EQ(E.Algorithm, NcclAlgorithm::Nvls);
  EXPECT_EQ(E.Protocol, NcclProtocol::Simple);
  EXPECT_NEAR(E.Seconds, 25 * Us + Bytes / AlgBw, 1e-9);
  EXPECT_NEAR(E.BusBandwidth, AlgBw * 14 / 8, 1e3);
  // On its links each GPU carries 9/8 of the buffer, at 5/6 of 370.8 GB/s.
  EXPECT_DOUBLE_EQ(E.LinkBytes, Bytes * 9 / 8);
  EXPECT_NEAR(E.linkRate(), 370.8e9 * 5 / 6, 1e3);
  // Other collectives, and NCCL_ALGO=^NVLS, take the ring.
  NcclEstimate G = ncclCollectiveTime(NcclCollective::AllGather, Bytes, S);
  EXPECT_EQ(G.Algorithm, NcclAlgorithm::Ring);
  EXPECT_DOUBLE_EQ(G.BusBandwidth, 370.8e9);
  NcclEstimate R = ncclCollectiveTime(NcclCollective::AllReduce, Bytes, S,
                                      select("^nvls", nullptr));
  EXPECT_EQ(R.Algorithm, NcclAlgorithm::Ring);
}

TEST(NcclCostTest, ForcedProtocolAndPointToPoint) {
  // NCCL_PROTO=LL128 on 1 GB, 8 GPUs: 14 + 14 x 1.9 = 40.6 us + 1.75e9 B /
  // (100 GB/s x 0.92).
  NcclEstimate E = ncclCollectiveTime(NcclCollective::AllReduce, 1e9, sys(8, 1),
                                      select(nullptr, "LL128"));
  EXPECT_EQ(E.Protocol, NcclProtocol::LL128);
  EXPECT_NEAR(E.Seconds, 40.6 * Us + 1.75e9 / 92e9, 1e-9);
  // A send between nodes: one NIC, one network hop. Simple: 8.4 + 14 us +
  // 1e8 B / 12.5 GB/s = 8,022.4 us.
  NcclEstimate P = ncclPointToPointTime(1e8, /*SameNode=*/false, sys(16, 2));
  EXPECT_NEAR(P.Seconds, 8022.4 * Us, 1e-9);
  EXPECT_NEAR(P.Latency, 22.4 * Us, 1e-12);
  EXPECT_DOUBLE_EQ(P.LinkBytes, 1e8);
  // One rank: only the base latency.
  NcclEstimate One =
      ncclCollectiveTime(NcclCollective::AllReduce, 1e9, sys(1, 1));
  EXPECT_NEAR(One.Seconds, 6.6 * Us, 1e-12);
}

TEST(NcclCostTest, SelectionsAsNcclReadsThem) {
  NcclSelection S;
  std::string Error;
  ASSERT_TRUE(S.setAlgorithms("ring, TREE", Error));
  EXPECT_TRUE(S.Algorithms[0] && S.Algorithms[1] && !S.Algorithms[2]);
  ASSERT_TRUE(S.setAlgorithms("^NVLS", Error));
  EXPECT_TRUE(S.Algorithms[0] && S.Algorithms[1] && !S.Algorithms[2]);
  // An algorithm NCCL has and Orrery does not model selects nothing here.
  ASSERT_TRUE(S.setAlgorithms("CollNetDirect", Error));
  EXPECT_FALSE(S.Algorithms[0] || S.Algorithms[1] || S.Algorithms[2]);
  EXPECT_FALSE(S.setAlgorithms("Ring,Star", Error));
  EXPECT_EQ(Error, "'star' is not a name NCCL knows");
  ASSERT_TRUE(S.setProtocols("^LL", Error));
  EXPECT_TRUE(!S.Protocols[0] && S.Protocols[1] && S.Protocols[2]);
  EXPECT_TRUE(S.ForceLL128); // NCCL's parseList enables it outright
  EXPECT_FALSE(S.setProtocols("Tree", Error));
  // With nothing left for a collective, NCCL's fallback: the fastest.
  NcclEstimate E = ncclCollectiveTime(NcclCollective::AllGather, 1e6, sys(8, 1),
                                      select("Tree", nullptr));
  EXPECT_EQ(E.Algorithm, NcclAlgorithm::Ring);
}

TEST(NcclCostTest, SystemsOfMachineFiles) {
  // musica-h100: 4 GPUs, every pair 130 GB/s (three links per GPU in use:
  // 390 GB/s), one 24.756 GB/s NIC per GPU (99.024 GB/s a node).
  ParsedFile F =
      loadMachineFile(std::string(ORRERY_MACHINES_DIR) + "/musica-h100.yaml");
  ASSERT_TRUE(F.ok());
  NcclSystem R = NcclSystem::of(F.M, 8, 2);
  EXPECT_DOUBLE_EQ(R.IntraBandwidth, 390e9);
  EXPECT_DOUBLE_EQ(R.PeerBandwidth, 130e9);
  EXPECT_NEAR(R.InterBandwidth, 99.024e9, 1e3);
  EXPECT_TRUE(R.IntraNvlink);
  EXPECT_FALSE(R.Nvls);
  EXPECT_TRUE(R.AmdCpu);
  EXPECT_EQ(R.ComputeCapability, 90);
  // dgx-h100: 18 NVLinks at NCCL's 20.6 GB/s for Hopper, NVLS switches,
  // 8 NDR400 adapters (50 GB/s each).
  ParsedFile H =
      loadMachineFile(std::string(ORRERY_MACHINES_DIR) + "/dgx-h100.yaml");
  ASSERT_TRUE(H.ok());
  NcclSystem D = NcclSystem::of(H.M, 16, 2);
  EXPECT_NEAR(D.IntraBandwidth, 370.8e9, 1e3);
  EXPECT_NEAR(D.PeerBandwidth, 370.8e9, 1e3);
  EXPECT_NEAR(D.InterBandwidth, 400e9, 1e3);
  EXPECT_TRUE(D.Nvls);
  EXPECT_FALSE(D.AmdCpu);
  // dgx-a100: 12 NVLinks at 20 GB/s for Ampere; no NVLS.
  ParsedFile A =
      loadMachineFile(std::string(ORRERY_MACHINES_DIR) + "/dgx-a100.yaml");
  ASSERT_TRUE(A.ok());
  NcclSystem G = NcclSystem::of(A.M, 8, 1);
  EXPECT_NEAR(G.IntraBandwidth, 240e9, 1e3);
  EXPECT_FALSE(G.Nvls);
}

} // namespace
