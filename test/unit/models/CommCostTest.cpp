//===- CommCostTest.cpp - Device legs, T_p2p, T_coll, T_coll^op -----------===//
//
// Every expectation is computed by hand from the parameters below (round
// numbers; 1 MB = 1e6 bytes):
//   t_h2d(1 MB) = 2 us + 1e6 / 50e9 s = 22 us
//   t_d2h(1 MB) = 3 us + 1e6 / 40e9 s = 28 us
//   t_peer(1 MB) = 1 us + 1e6 / 100e9 s = 11 us
//   t_local(1 MB) = 0.5 us + 1e6 / 1e12 s = 1.5 us
//   alpha_gdr = 2 us, t_reduce(1 MB) = 1e6 / 10e9 s = 100 us
//   t_call = 1 us (host buffers), 5 us (device buffers)
//
//===----------------------------------------------------------------------===//

#include "orrery/models/CommCost.h"
#include "orrery/models/MachineFile.h"

#include <gtest/gtest.h>

using namespace orrery::models;

namespace {

constexpr double Us = 1e-6;
constexpr double MB = 1e6;

CommParams params() {
  CommParams P;
  P.H2D = {2 * Us, 50e9};
  P.D2H = {3 * Us, 40e9};
  P.Peer = {1 * Us, 100e9};
  P.DeviceLocal = {0.5 * Us, 1e12};
  P.AlphaGdr = 2 * Us;
  P.ReductionBandwidth = 10e9;
  P.CallHost = 1 * Us;
  P.CallDevice = 5 * Us;
  P.CopyCallOverhead = 5 * Us;
  P.PeerAccess = true;
  P.GpuDirectRdma = true;
  P.HostBounce = {Collective::Allreduce, Collective::Reduce,
                  Collective::ReduceScatterBlock, Collective::Scan,
                  Collective::Exscan};
  return P;
}

Endpoint dev(int Node, int Gpu) { return {Node, Gpu, MemorySpace::Device}; }
Endpoint host(int Node, int Gpu) { return {Node, Gpu, MemorySpace::Host}; }

} // namespace

TEST(Hockney, LatencyPlusSizeOverBandwidth) {
  Hockney H{2 * Us, 50e9};
  EXPECT_DOUBLE_EQ(H.time(0), 2 * Us);
  EXPECT_DOUBLE_EQ(H.time(MB), 22 * Us);
  EXPECT_DOUBLE_EQ(H.time(50e9), 1 + 2 * Us);
}

TEST(DeviceLeg, EachCaseOfEquationOne) {
  CommParams P = params();
  EXPECT_DOUBLE_EQ(deviceLeg(P, LegKind::HostStaging, MB).total(), 50 * Us);
  EXPECT_DOUBLE_EQ(deviceLeg(P, LegKind::GpuDirectRdma, MB).total(), 2 * Us);
  // alpha_gdr does not grow with the message.
  EXPECT_DOUBLE_EQ(deviceLeg(P, LegKind::GpuDirectRdma, 1000 * MB).total(),
                   2 * Us);
  EXPECT_DOUBLE_EQ(deviceLeg(P, LegKind::Peer, MB).total(), 11 * Us);
  EXPECT_DOUBLE_EQ(deviceLeg(P, LegKind::HostResident, MB).total(), 0);
  EXPECT_DOUBLE_EQ(deviceLeg(P, LegKind::DeviceLocal, MB).total(), 1.5 * Us);
  EXPECT_DOUBLE_EQ(deviceLeg(P, LegKind::None, MB).total(), 0);
  // All of it is device-leg time.
  Cost C = deviceLeg(P, LegKind::HostStaging, MB);
  EXPECT_DOUBLE_EQ(C[CostCategory::DeviceLeg], C.total());
}

TEST(Transport, SameGpuIsOneLocalCopy) {
  TransportChoice T = selectTransport(params(), dev(0, 1), dev(0, 1));
  EXPECT_EQ(T.Where, Locality::SameGpu);
  EXPECT_EQ(T.SendLeg, LegKind::DeviceLocal);
  EXPECT_EQ(T.RecvLeg, LegKind::None);
  EXPECT_FALSE(T.PayloadOnNetwork);
}

TEST(Transport, SameNodeUsesPeerCopyWhenAvailable) {
  CommParams P = params();
  TransportChoice T = selectTransport(P, dev(0, 0), dev(0, 1));
  EXPECT_EQ(T.Where, Locality::SameNode);
  EXPECT_EQ(T.SendLeg, LegKind::Peer);
  EXPECT_EQ(T.RecvLeg, LegKind::None);
  EXPECT_FALSE(T.PayloadOnNetwork);

  P.PeerAccess = false;
  T = selectTransport(P, dev(0, 0), dev(0, 1));
  EXPECT_EQ(T.SendLeg, LegKind::HostStaging);
  EXPECT_EQ(T.RecvLeg, LegKind::HostStaging);
  EXPECT_TRUE(T.PayloadOnNetwork);
}

TEST(Transport, OtherNodeUsesGpuDirectWhenAvailable) {
  CommParams P = params();
  TransportChoice T = selectTransport(P, dev(0, 0), dev(3, 2));
  EXPECT_EQ(T.Where, Locality::OtherNode);
  EXPECT_EQ(T.SendLeg, LegKind::GpuDirectRdma);
  EXPECT_EQ(T.RecvLeg, LegKind::GpuDirectRdma);
  EXPECT_TRUE(T.PayloadOnNetwork);

  P.GpuDirectRdma = false;
  T = selectTransport(P, dev(0, 0), dev(3, 2));
  EXPECT_EQ(T.SendLeg, LegKind::HostStaging);
  EXPECT_EQ(T.RecvLeg, LegKind::HostStaging);
}

TEST(Transport, HostBuffersHaveNoLeg) {
  CommParams P = params();
  TransportChoice T = selectTransport(P, host(0, 0), host(0, 1));
  EXPECT_EQ(T.SendLeg, LegKind::HostResident);
  EXPECT_EQ(T.RecvLeg, LegKind::HostResident);
  EXPECT_TRUE(T.PayloadOnNetwork);
  T = selectTransport(P, host(0, 0), dev(1, 0));
  EXPECT_EQ(T.SendLeg, LegKind::HostResident);
  EXPECT_EQ(T.RecvLeg, LegKind::GpuDirectRdma);
  // A device buffer sent to a host buffer on the same node is staged.
  T = selectTransport(P, dev(0, 0), host(0, 1));
  EXPECT_EQ(T.SendLeg, LegKind::HostStaging);
  EXPECT_EQ(T.RecvLeg, LegKind::HostResident);
}

TEST(P2p, EquationTwoAcrossNodes) {
  CommParams P = params();
  const double Net = 100 * Us;
  // GPUDirect: 2 + 100 + 2 us.
  Cost C = p2pCost(P, selectTransport(P, dev(0, 0), dev(1, 0)), MB, MB, Net);
  EXPECT_DOUBLE_EQ(C.total(), 104 * Us);
  EXPECT_DOUBLE_EQ(C[CostCategory::DeviceLeg], 4 * Us);
  EXPECT_DOUBLE_EQ(C[CostCategory::Network], Net);
  // Host staging on both sides: 50 + 100 + 50 us.
  P.GpuDirectRdma = false;
  C = p2pCost(P, selectTransport(P, dev(0, 0), dev(1, 0)), MB, MB, Net);
  EXPECT_DOUBLE_EQ(C.total(), 200 * Us);
  // Host send buffer, device receive buffer: 0 + 100 + 50 us.
  C = p2pCost(P, selectTransport(P, host(0, 0), dev(1, 0)), MB, MB, Net);
  EXPECT_DOUBLE_EQ(C.total(), 150 * Us);
  // Different sizes: the receive leg uses n_r.
  C = p2pCost(P, selectTransport(P, dev(0, 0), dev(1, 0)), MB, 2 * MB, 0);
  EXPECT_DOUBLE_EQ(C.total(), 50 * Us + (3 * Us + 2 * MB / 40e9) +
                                  (2 * Us + 2 * MB / 50e9));
}

TEST(P2p, PeerCopyInsideANode) {
  CommParams P = params();
  Cost C = p2pCost(P, selectTransport(P, dev(0, 0), dev(0, 3)), MB, MB);
  EXPECT_DOUBLE_EQ(C.total(), 11 * Us);
}

TEST(Collective, EquationThreeWithoutHostBounce) {
  CommParams P = params();
  CollectiveCall C{Collective::Bcast, MemorySpace::Device, MB, MB,
                   Locality::OtherNode};
  EXPECT_FALSE(bouncesThroughHost(P, C));
  // t_leg(n_s) + t_leg(n_r) + t_call + T_net = 2 + 2 + 5 + 40 us.
  Cost T = collectiveCost(P, C, 40 * Us);
  EXPECT_DOUBLE_EQ(T.total(), 49 * Us);
  EXPECT_DOUBLE_EQ(T[CostCategory::DeviceLeg], 4 * Us);
  EXPECT_DOUBLE_EQ(T[CostCategory::CallOverhead], 5 * Us);
  // Inside a node with peer access: 11 + 11 + 5 us.
  C.Span = Locality::SameNode;
  EXPECT_DOUBLE_EQ(collectiveCost(P, C).total(), 27 * Us);
  // Without GPUDirect: 50 + 50 + 5 us.
  C.Span = Locality::OtherNode;
  P.GpuDirectRdma = false;
  EXPECT_DOUBLE_EQ(collectiveCost(P, C).total(), 105 * Us);
}

TEST(Collective, HostBuffersPayOnlyTheHostCall) {
  CommParams P = params();
  CollectiveCall C{Collective::Allreduce, MemorySpace::Host, MB, MB,
                   Locality::OtherNode};
  EXPECT_FALSE(bouncesThroughHost(P, C));
  EXPECT_DOUBLE_EQ(collectiveCost(P, C, 7 * Us).total(), 8 * Us);
}

TEST(Collective, ReductionOnDeviceBuffersBouncesThroughHost) {
  CommParams P = params();
  CollectiveCall C{Collective::Allreduce, MemorySpace::Device, MB, MB,
                   Locality::OtherNode};
  ASSERT_TRUE(bouncesThroughHost(P, C));
  // 2 t_d2h + t_h2d = 2 x 28 + 22 = 78 us; t_reduce = 100 us; t_call = 5 us.
  Cost T = collectiveCost(P, C, 30 * Us);
  EXPECT_DOUBLE_EQ(T[CostCategory::HostBounce], 78 * Us);
  EXPECT_DOUBLE_EQ(T[CostCategory::Reduction], 100 * Us);
  EXPECT_DOUBLE_EQ(T[CostCategory::CallOverhead], 5 * Us);
  EXPECT_DOUBLE_EQ(T[CostCategory::DeviceLeg], 0);
  EXPECT_DOUBLE_EQ(T.total(), 213 * Us);
}

TEST(Collective, OnlyCollCudaOperationsBounce) {
  CommParams P = params();
  for (Collective Op :
       {Collective::Allreduce, Collective::Reduce,
        Collective::ReduceScatterBlock, Collective::Scan, Collective::Exscan})
    EXPECT_TRUE(bouncesThroughHost(
        P, {Op, MemorySpace::Device, MB, MB, Locality::OtherNode}))
        << collectiveName(Op);
  for (Collective Op :
       {Collective::ReduceScatter, Collective::Bcast, Collective::Allgather,
        Collective::Alltoall, Collective::Gather, Collective::Scatter})
    EXPECT_FALSE(bouncesThroughHost(
        P, {Op, MemorySpace::Device, MB, MB, Locality::OtherNode}))
        << collectiveName(Op);
  // A machine whose MPI does not bounce (empty list) uses T_coll.
  P.HostBounce.clear();
  CollectiveCall C{Collective::Allreduce, MemorySpace::Device, MB, MB,
                   Locality::OtherNode};
  EXPECT_DOUBLE_EQ(collectiveCost(P, C).total(), 9 * Us);
}

TEST(Collective, ReduceScatterBlockBouncesBothBufferSizes) {
  CommParams P = params();
  // Send 4 MB, receive 1 MB: t_d2h(4 MB) + t_d2h(1 MB) + t_h2d(1 MB)
  // = 103 + 28 + 22 us; t_reduce(4 MB) = 400 us; t_call = 5 us.
  CollectiveCall C{Collective::ReduceScatterBlock, MemorySpace::Device, 4 * MB,
                   MB, Locality::OtherNode};
  Cost T = collectiveCost(P, C);
  EXPECT_DOUBLE_EQ(T[CostCategory::HostBounce], 153 * Us);
  EXPECT_DOUBLE_EQ(T[CostCategory::Reduction], 400 * Us);
  EXPECT_DOUBLE_EQ(T.total(), 558 * Us);
}

TEST(Collective, BarrierHasNoLegs) {
  CommParams P = params();
  CollectiveCall C{Collective::Barrier, MemorySpace::Device, 0, 0,
                   Locality::OtherNode};
  EXPECT_DOUBLE_EQ(collectiveCost(P, C).total(), 5 * Us);
}

TEST(Provenance, TimeOnEstimatesIsTracked) {
  CommParams P = params();
  TransportChoice Gdr = selectTransport(P, dev(0, 0), dev(1, 0));
  EXPECT_DOUBLE_EQ(p2pCost(P, Gdr, MB, MB, 100 * Us).estimated(), 0);
  // alpha_gdr an estimate: both legs (4 us of 104 us) rest on it.
  P.Estimates.AlphaGdr = true;
  Cost C = p2pCost(P, Gdr, MB, MB, 100 * Us);
  EXPECT_DOUBLE_EQ(C.estimated(), 4 * Us);
  EXPECT_DOUBLE_EQ(C.estimateShare(), 4.0 / 104);
  // A staged leg rests on estimates when either copy does.
  P.H2D.Estimate = true;
  EXPECT_DOUBLE_EQ(deviceLeg(P, LegKind::HostStaging, MB).estimated(), 50 * Us);
  EXPECT_DOUBLE_EQ(deviceLeg(P, LegKind::Peer, MB).estimated(), 0);
  // T_coll^op: bounce (H2D estimated) and t_call device (estimated) but not
  // t_reduce.
  P.Estimates.CallDevice = true;
  CollectiveCall A{Collective::Allreduce, MemorySpace::Device, MB, MB,
                   Locality::OtherNode};
  EXPECT_DOUBLE_EQ(collectiveCost(P, A).estimated(), 78 * Us + 5 * Us);
}

TEST(Provenance, FromTheMusicaMachineFile) {
  ParsedFile F =
      loadMachineFile(std::string(ORRERY_MACHINES_DIR) + "/musica-h100.yaml");
  ASSERT_TRUE(F.ok());
  CommParams P = CommParams::fromMachine(F.M);
  // NVLink pair bandwidth and latency are measured.
  Cost Peer = p2pCost(P, selectTransport(P, dev(0, 0), dev(0, 1)), MB, MB);
  EXPECT_GT(Peer.total(), 0);
  EXPECT_DOUBLE_EQ(Peer.estimated(), 0);
  // alpha_gdr is an estimate.
  Cost Gdr = p2pCost(P, selectTransport(P, dev(0, 0), dev(1, 1)), MB, MB);
  EXPECT_DOUBLE_EQ(Gdr.estimateShare(), 1.0);
}

TEST(Memcpy, CallOverheadPlusTransfer) {
  CommParams P = params();
  Cost C = memcpyCost(P, CopyKind::HostToDevice, MB);
  EXPECT_DOUBLE_EQ(C[CostCategory::CallOverhead], 5 * Us);
  EXPECT_DOUBLE_EQ(C.total(), 27 * Us);
  EXPECT_DOUBLE_EQ(memcpyCost(P, CopyKind::DeviceToHost, MB).total(), 33 * Us);
  EXPECT_DOUBLE_EQ(memcpyCost(P, CopyKind::PeerToPeer, MB).total(), 16 * Us);
  P.PeerAccess = false;
  EXPECT_DOUBLE_EQ(memcpyCost(P, CopyKind::PeerToPeer, MB).total(), 55 * Us);
}

TEST(CostBreakdown, SumsAndPrints) {
  Cost A(CostCategory::Launch, 4 * Us);
  A.add(CostCategory::Memory, 1e-3);
  Cost B(CostCategory::Launch, 1 * Us);
  Cost S = A + B;
  EXPECT_DOUBLE_EQ(S[CostCategory::Launch], 5 * Us);
  EXPECT_DOUBLE_EQ(S.total(), 1e-3 + 5 * Us);
  EXPECT_EQ(S.str(), "total 1.005 ms (launch 5 us, memory 1 ms)");
}

TEST(NonblockingCollective, BlockingBoundCountsTheRounds) {
  Hockney Route{2 * Us, 10e9};
  // 8 ranks: three rounds of recursive doubling; 1 MB once at 10 GB/s.
  EXPECT_NEAR(blockingCollectiveBound(Collective::Allreduce, 8, MB, Route),
              3 * 2 * Us + 100 * Us, 1e-12);
  // 5 ranks still take three rounds; 2 ranks one.
  EXPECT_NEAR(blockingCollectiveBound(Collective::Bcast, 5, 0, Route),
              3 * 2 * Us, 1e-12);
  EXPECT_NEAR(blockingCollectiveBound(Collective::Barrier, 2, 0, Route),
              2 * Us, 1e-12);
  // Alltoall's linear exchange is one round, as SMPI's nonblocking form.
  EXPECT_NEAR(blockingCollectiveBound(Collective::Alltoall, 8, 8, Route),
              2 * Us + 8 / 10e9, 1e-12);
  // One rank, or no route: nothing to wait for.
  EXPECT_EQ(blockingCollectiveBound(Collective::Allreduce, 1, MB, Route), 0);
  EXPECT_EQ(blockingCollectiveBound(Collective::Allreduce, 8, MB,
                                    Hockney{2 * Us, 0}),
            0);
}
