//===- PlatformTest.cpp - SimGrid platform text and hostfile --------------===//
//
// Structure of the generated XML. That SimGrid loads it and routes as
// expected is checked by the lit tests in test/models (REQUIRES: simgrid).
//
//===----------------------------------------------------------------------===//

#include "orrery/models/Platform.h"
#include "orrery/models/MachineFile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string_view>
#include <vector>

using namespace orrery::models;

namespace {

Machine load(const char *Name) {
  ParsedFile F = loadMachineFile(std::string(ORRERY_MACHINES_DIR) + "/" + Name);
  EXPECT_TRUE(F.ok());
  return F.M;
}

std::size_t count(const std::string &Text, const std::string &Needle) {
  std::size_t N = 0;
  for (std::size_t P = Text.find(Needle); P != std::string::npos;
       P = Text.find(Needle, P + 1))
    ++N;
  return N;
}

/// The most vertices (child zones, hosts, routers) any DijkstraCache zone of
/// the platform routes among: SimGrid searches that many per source.
std::size_t widestDijkstraZone(const std::string &X) {
  struct Open {
    bool Dijkstra;
    std::size_t Children = 0;
  };
  std::vector<Open> Stack;
  std::size_t Widest = 0;
  std::istringstream In(X);
  for (std::string Line; std::getline(In, Line);) {
    std::size_t At = Line.find_first_not_of(' ');
    if (At == std::string::npos)
      continue;
    std::string_view L(Line.c_str() + At);
    bool OpensZone = L.substr(0, 6) == "<zone ";
    bool Vertex =
        OpensZone || L.substr(0, 5) == "<host" || L.substr(0, 7) == "<router";
    if (Vertex && !Stack.empty())
      ++Stack.back().Children;
    if (OpensZone)
      Stack.push_back(
          {L.find("routing=\"DijkstraCache\"") != std::string_view::npos});
    if (L.substr(0, 7) == "</zone>") {
      if (Stack.back().Dijkstra)
        Widest = std::max(Widest, Stack.back().Children);
      Stack.pop_back();
    }
  }
  return Widest;
}

std::string generate(const Machine &M, int Nodes, PlatformStats *S = nullptr) {
  std::ostringstream OS;
  std::string Error;
  PlatformOptions O;
  O.Nodes = Nodes;
  EXPECT_TRUE(writePlatform(OS, M, O, Error, S)) << Error;
  return OS.str();
}

} // namespace

TEST(Platform, Names) {
  EXPECT_EQ(cpuHostName(3, 1), "node3-cpu1");
  EXPECT_EQ(gpuHostName(3, 1), "node3-gpu1");
  EXPECT_EQ(nodeZoneName(12), "node12");
}

TEST(Platform, LinkClassesFromNames) {
  EXPECT_EQ(classifyLink("node12-pcie3-h2d"), LinkClass::Pcie);
  EXPECT_EQ(classifyLink("node0-nvlink0-1"), LinkClass::NvLink);
  EXPECT_EQ(classifyLink("node0-nvlink7-down"), LinkClass::NvLink);
  EXPECT_EQ(classifyLink("node3-nic2-tx"), LinkClass::Nic);
  EXPECT_EQ(classifyLink("node3-shm2"), LinkClass::SharedMemory);
  EXPECT_EQ(classifyLink("node3-uplink-tx"), LinkClass::Fabric);
  EXPECT_EQ(classifyLink("leaf4-up"), LinkClass::Fabric);
  EXPECT_EQ(classifyLink("g1-local0-18-fwd"), LinkClass::Fabric);
  EXPECT_EQ(classifyLink("global0-2-back"), LinkClass::Fabric);
  EXPECT_EQ(classifyLink("__loopback__"), LinkClass::Other);
  EXPECT_TRUE(isGpuLink("node1-pcie0-d2h"));
  EXPECT_TRUE(isGpuLink("node1-nvlink0-up"));
  EXPECT_FALSE(isGpuLink("node1-nic0-tx"));
  EXPECT_FALSE(isGpuLink("leaf0-down"));
  EXPECT_TRUE(isIntraNodeLink("node1-shm0"));
  EXPECT_TRUE(isIntraNodeLink("node1-pcie0-d2h"));
  EXPECT_FALSE(isIntraNodeLink("node1-nic0-tx"));
}

TEST(Platform, EveryGeneratedLinkHasAClass) {
  Machine Dragonfly = load("h200-node.yaml");
  ParsedFile Net =
      loadMachineFile(std::string(ORRERY_MACHINES_DIR) + "/slingshot.yaml");
  ASSERT_TRUE(Net.ok());
  applyNetwork(Dragonfly, Net.M);
  for (const Machine &M : {load("dgx-a100.yaml"), Dragonfly}) {
    std::string X = generate(M, 300);
    std::size_t N = 0;
    for (std::size_t P = X.find("<link id=\""); P != std::string::npos;
         P = X.find("<link id=\"", P + 1)) {
      std::size_t B = P + 10, E = X.find('"', B);
      EXPECT_NE(classifyLink(std::string_view(X).substr(B, E - B)),
                LinkClass::Other)
          << X.substr(B, E - B);
      ++N;
    }
    EXPECT_GT(N, 300u * 30u) << M.Name;
  }
}

TEST(Platform, MusicaNodeStructure) {
  PlatformStats S;
  std::string X = generate(load("musica-h100.yaml"), 2, &S);
  EXPECT_NE(X.find("<platform version=\"4.1\">"), std::string::npos);
  EXPECT_EQ(count(X, "<host id="), 16u); // 2 x (4 CPU rails + 4 GPUs)
  EXPECT_EQ(S.Hosts, 16u);
  EXPECT_EQ(count(X, "<zone id=\"node"), 2u);
  // Per-direction PCIe with the measured H2D and D2H bandwidths.
  EXPECT_NE(X.find("<link id=\"node1-pcie3-h2d\" bandwidth=\"54800000000Bps\" "
                   "latency=\"2e-06s\"/>"),
            std::string::npos);
  EXPECT_NE(X.find("<link id=\"node1-pcie3-d2h\" bandwidth=\"46800000000Bps\""),
            std::string::npos);
  // Fully connected NVLink: one link per ordered pair, 12 per node.
  EXPECT_EQ(count(X, "<link id=\"node0-nvlink"), 12u);
  EXPECT_NE(X.find("<route src=\"node0-gpu0\" dst=\"node0-gpu1\" "
                   "symmetrical=\"NO\"><link_ctn id=\"node0-nvlink0-1\"/>"
                   "</route>"),
            std::string::npos);
  // A NIC per GPU, used by the GPU's route to the gateway.
  EXPECT_EQ(count(X, "<link id=\"node0-nic"), 8u);
  EXPECT_NE(X.find("<route src=\"node0-gpu2\" dst=\"node0-gw\" "
                   "symmetrical=\"NO\"><link_ctn id=\"node0-pcie2-d2h\"/>"
                   "<link_ctn id=\"node0-nic2-tx\"/></route>"),
            std::string::npos);
  // Rails: a rank's host-buffer traffic leaves through its rail's NIC, and
  // ranks of one node talk through the sending rail's shared-memory link at
  // the machine file's shm_transport figures.
  EXPECT_NE(X.find("<route src=\"node0-cpu3\" dst=\"node0-gw\" "
                   "symmetrical=\"NO\"><link_ctn id=\"node0-nic3-tx\"/>"
                   "</route>"),
            std::string::npos);
  EXPECT_NE(X.find("<route src=\"node1-gw\" dst=\"node1-cpu1\" "
                   "symmetrical=\"NO\"><link_ctn id=\"node1-nic1-rx\"/>"
                   "</route>"),
            std::string::npos);
  EXPECT_NE(X.find("<link id=\"node0-shm2\" bandwidth=\"16000000000Bps\" "
                   "latency=\"4e-07s\"/>"),
            std::string::npos);
  EXPECT_NE(X.find("<route src=\"node0-cpu2\" dst=\"node0-cpu0\" "
                   "symmetrical=\"NO\"><link_ctn id=\"node0-shm2\"/>"
                   "</route>"),
            std::string::npos);
  EXPECT_EQ(X.find("hostnic"), std::string::npos);
  // GPU hosts run at the FP64 peak; properties tell the runtime who is who.
  EXPECT_NE(X.find("<host id=\"node1-gpu2\" speed=\"3.35e+13f\">"),
            std::string::npos);
  EXPECT_NE(X.find("<prop id=\"orrery_gpu\" value=\"2\"/>"), std::string::npos);
}

TEST(Platform, LinksAreDeclaredInTheFirstChildZone) {
  // SimGrid resolves link names from the root, depth first; a first child
  // zone holding every link keeps large platforms fast to load.
  std::string X = generate(load("musica-h100.yaml"), 20);
  std::size_t System = X.find("<zone id=\"system\" routing=\"DijkstraCache\">");
  std::size_t Links = X.find("<zone id=\"links\" routing=\"None\">");
  std::size_t FirstLink = X.find("<link id=");
  std::size_t FirstNode = X.find("<zone id=\"node0\"");
  ASSERT_NE(System, std::string::npos);
  ASSERT_NE(Links, std::string::npos);
  EXPECT_LT(System, Links);
  EXPECT_LT(Links, FirstLink);
  EXPECT_LT(FirstLink, FirstNode);
  EXPECT_EQ(X.find("<link id=", FirstNode), std::string::npos);
}

TEST(Platform, SharedNicsServeNeighbouringGpus) {
  // node.nics = 2 on a 4-GPU node: GPUs (and rails) 0-1 use NIC 0, 2-3 NIC 1.
  Machine M = load("musica-h100.yaml");
  M.Node.Nics.Value = 2;
  std::string X = generate(M, 1);
  EXPECT_EQ(count(X, "<link id=\"node0-nic"), 4u);
  EXPECT_NE(X.find("<route src=\"node0-gpu3\" dst=\"node0-gw\" "
                   "symmetrical=\"NO\"><link_ctn id=\"node0-pcie3-d2h\"/>"
                   "<link_ctn id=\"node0-nic1-tx\"/></route>"),
            std::string::npos);
  EXPECT_NE(X.find("<route src=\"node0-gw\" dst=\"node0-cpu1\" "
                   "symmetrical=\"NO\"><link_ctn id=\"node0-nic0-rx\"/>"
                   "</route>"),
            std::string::npos);
  // The node's cables carry its two NICs.
  EXPECT_NE(X.find("<link id=\"node0-uplink-tx\" bandwidth=\"49512000000Bps\""),
            std::string::npos);
}

TEST(Platform, NvSwitchNodesUsePorts) {
  std::string X = generate(load("dgx-a100.yaml"), 1);
  EXPECT_EQ(count(X, "<host id="), 16u);          // 8 CPU rails + 8 GPUs
  EXPECT_EQ(count(X, "-nvlink"), 16u + 2u * 56u); // 16 port links, 56 routes
  EXPECT_NE(X.find("<route src=\"node0-gpu0\" dst=\"node0-gpu7\" "
                   "symmetrical=\"NO\"><link_ctn id=\"node0-nvlink0-up\"/>"
                   "<link_ctn id=\"node0-nvlink7-down\"/></route>"),
            std::string::npos);
}

TEST(Platform, FatTreeLeavesAndCore) {
  // 16 nodes per leaf: 40 nodes need 3 leaves and a core.
  std::string X = generate(load("musica-h100.yaml"), 40);
  // Each leaf shares a zone with its nodes.
  EXPECT_EQ(count(X, "<zone id=\"leaf"), 6u);
  EXPECT_EQ(count(X, "-ports\" routing=\"DijkstraCache\""), 3u);
  EXPECT_NE(X.find("<zone id=\"leaf2-ports\" routing=\"DijkstraCache\">\n"
                   "    <zone id=\"leaf2\" routing=\"Full\">\n"
                   "      <router id=\"leaf2-router\"/>\n"
                   "    </zone>\n"
                   "    <zone id=\"node32\""),
            std::string::npos);
  EXPECT_EQ(count(X, "<zone id=\"core\""), 1u);
  // Core links carry spines x uplink = 32 x 50 GB/s.
  EXPECT_NE(X.find("<link id=\"leaf2-up\" bandwidth=\"1.6e+12Bps\""),
            std::string::npos);
  EXPECT_NE(
      X.find("<zoneRoute src=\"node39\" dst=\"leaf2\" gw_src=\"node39-gw\" "
             "gw_dst=\"leaf2-router\""),
      std::string::npos);
  // The system zone routes between leaves and core only.
  EXPECT_NE(X.find("<zoneRoute src=\"leaf2-ports\" dst=\"core\" "
                   "gw_src=\"leaf2-router\" gw_dst=\"core-router\" "
                   "symmetrical=\"NO\"><link_ctn id=\"leaf2-up\"/>"),
            std::string::npos);
  // One leaf is enough for 16 nodes: no core.
  EXPECT_EQ(count(generate(load("musica-h100.yaml"), 16), "\"core\""), 0u);
}

TEST(Platform, DragonflyGroups) {
  Machine M = load("h200-node.yaml");
  ParsedFile N =
      loadMachineFile(std::string(ORRERY_MACHINES_DIR) + "/slingshot.yaml");
  ASSERT_TRUE(N.ok());
  applyNetwork(M, N.M);
  // 4 nodes per router, 32 routers per group: 300 nodes -> 75 routers in
  // 3 groups (32, 32, 11); one global link pair per pair of groups.
  std::string X = generate(M, 300);
  EXPECT_EQ(count(X, "-ports\" routing=\"DijkstraCache\""), 75u);
  EXPECT_EQ(count(X, "<zone id=\"g"), 150u);
  EXPECT_EQ(count(X, "<link id=\"global"), 6u);
  EXPECT_EQ(count(X, "-local"), 2u * 2u * (2 * 496 + 55));
}

TEST(Platform, FlatSwitchServesManyNodesInBlocks) {
  Machine M = load("musica-h100.yaml");
  M.Network.Topology.Kind = TopologyKind::Flat;
  // 64 nodes on the switch's own ports; 130 in blocks of 64, 64 and 2.
  std::string Small = generate(M, 64);
  EXPECT_EQ(count(Small, "-ports\" routing"), 1u);
  EXPECT_EQ(Small.find("switch-b"), std::string::npos);
  std::string X = generate(M, 130);
  EXPECT_EQ(count(X, "-ports\" routing"), 4u);
  EXPECT_NE(X.find("<zoneRoute src=\"node129\" dst=\"switch-b2\""),
            std::string::npos);
  EXPECT_NE(X.find("<zoneRoute src=\"switch-b2-ports\" dst=\"switch\" "
                   "gw_src=\"switch-b2-router\" gw_dst=\"switch-router\" "
                   "symmetrical=\"NO\"><link_ctn id=\"switch-b2-up\"/>"),
            std::string::npos);
  // The backplane link limits no flow and adds no latency.
  EXPECT_NE(X.find("<link id=\"switch-b2-down\" bandwidth=\"1e+30Bps\" "
                   "latency=\"0s\" sharing_policy=\"FATPIPE\"/>"),
            std::string::npos);
  EXPECT_EQ(classifyLink("switch-b2-down"), LinkClass::Fabric);
  EXPECT_EQ(classifyLink("g0-r3-b1-up"), LinkClass::Fabric);
}

TEST(Platform, NoDijkstraZoneGrowsWithTheMachine) {
  // SimGrid's DijkstraCache searches its whole zone once per source: a zone
  // as large as the machine makes the first messages quadratic.
  Machine Fat = load("musica-h100.yaml");
  EXPECT_LE(widestDijkstraZone(generate(Fat, 16)), 17u);
  // 2,000 nodes: their leaves and the core (and the links zone) in the
  // system.
  auto PerLeaf =
      static_cast<std::size_t>(Fat.Network.Topology.NodesPerLeaf.Value);
  EXPECT_EQ(widestDijkstraZone(generate(Fat, 2000)),
            (2000 + PerLeaf - 1) / PerLeaf + 2);
  Machine Flat = Fat;
  Flat.Network.Topology.Kind = TopologyKind::Flat;
  // 2,000 nodes: 32 blocks and the switch.
  EXPECT_EQ(widestDijkstraZone(generate(Flat, 2000)), 65u);
  Machine Df = load("h200-node.yaml");
  ParsedFile N =
      loadMachineFile(std::string(ORRERY_MACHINES_DIR) + "/slingshot.yaml");
  ASSERT_TRUE(N.ok());
  applyNetwork(Df, N.M);
  // 2,000 nodes: 500 routers (and the links zone) in the system.
  EXPECT_EQ(widestDijkstraZone(generate(Df, 2000)), 501u);
}

TEST(Platform, RejectsZeroNodes) {
  std::ostringstream OS;
  std::string Error;
  PlatformOptions O;
  O.Nodes = 0;
  EXPECT_FALSE(writePlatform(OS, load("musica-h100.yaml"), O, Error));
  EXPECT_NE(Error.find("at least one node"), std::string::npos);
}

TEST(Platform, HostfileListsOneCpuHostPerRank) {
  std::ostringstream OS;
  writeHostfile(OS, 2, 3, 2);
  EXPECT_EQ(OS.str(), "node0-cpu0\nnode0-cpu1\nnode0-cpu0\n"
                      "node1-cpu0\nnode1-cpu1\nnode1-cpu0\n");
}
