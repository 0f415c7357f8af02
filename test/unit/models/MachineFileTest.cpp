//===- MachineFileTest.cpp - Machine-file reading and validation ----------===//
//
// The shipped files must validate; mutations of one of them must be rejected
// with the line and column of the offending text.
//
//===----------------------------------------------------------------------===//

#include "orrery/models/MachineFile.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace orrery::models;

namespace {

std::string machinePath(const char *Name) {
  return std::string(ORRERY_MACHINES_DIR) + "/" + Name;
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

/// 1-based line of the first occurrence of \p Needle in \p Text.
int lineOf(const std::string &Text, const std::string &Needle) {
  std::size_t Pos = Text.find(Needle);
  if (Pos == std::string::npos)
    return -1;
  return 1 +
         static_cast<int>(std::count(Text.begin(), Text.begin() + Pos, '\n'));
}

/// The MUSICA file with \p From replaced by \p To (which must occur).
std::string mutated(const std::string &From, const std::string &To) {
  std::string Text = readFile(machinePath("musica-h100.yaml"));
  std::size_t Pos = Text.find(From);
  EXPECT_NE(Pos, std::string::npos) << "test fixture lacks: " << From;
  if (Pos != std::string::npos)
    Text.replace(Pos, From.size(), To);
  return Text;
}

/// Parses \p Text and expects exactly one error, containing \p Message.
Diagnostic onlyError(const std::string &Text, const std::string &Message) {
  ParsedFile F = parseMachineText(Text, "m.yaml");
  EXPECT_EQ(F.Errors.size(), 1u);
  for (const Diagnostic &D : F.Errors)
    EXPECT_NE(D.Message.find(Message), std::string::npos) << D.str();
  return F.Errors.empty() ? Diagnostic() : F.Errors.front();
}

} // namespace

TEST(MachineFile, ShippedMachinesValidate) {
  for (const char *Name :
       {"musica-h100.yaml", "h200-node.yaml", "dgx-a100.yaml"}) {
    ParsedFile F = loadMachineFile(machinePath(Name));
    for (const Diagnostic &D : F.Errors)
      ADD_FAILURE() << D.str();
    EXPECT_EQ(F.Type, FileType::Machine) << Name;
    EXPECT_GT(F.M.Quantities.size(), 50u) << Name;
  }
  ParsedFile S = loadMachineFile(machinePath("slingshot.yaml"));
  for (const Diagnostic &D : S.Errors)
    ADD_FAILURE() << D.str();
  EXPECT_EQ(S.Type, FileType::Network);
  EXPECT_EQ(S.M.Network.Topology.Kind, TopologyKind::Dragonfly);
  EXPECT_DOUBLE_EQ(S.M.Network.Nic.Bandwidth.Value, 25e9);
  EXPECT_DOUBLE_EQ(S.M.Network.Ramc.InjectSize.Value, 192);
}

TEST(MachineFile, MusicaValuesInBaseUnits) {
  ParsedFile F = loadMachineFile(machinePath("musica-h100.yaml"));
  ASSERT_TRUE(F.ok());
  const Machine &M = F.M;
  EXPECT_EQ(M.Name, "musica-h100");
  EXPECT_EQ(M.gpusPerNode(), 4);
  EXPECT_DOUBLE_EQ(M.Gpu.Peak[0].Value, 33.5e12);
  EXPECT_EQ(M.Gpu.Peak[0].Kind, ValueKind::Spec);
  EXPECT_DOUBLE_EQ(M.Gpu.SharedMemoryPerSm.Value, 228 * 1024.0);
  EXPECT_DOUBLE_EQ(M.Network.Nic.Bandwidth.Value, 24.756e9);
  EXPECT_EQ(M.Network.Nic.Bandwidth.Kind, ValueKind::Measured);
  EXPECT_NE(M.Network.Nic.Bandwidth.Source.find("ucx#9287"), std::string::npos);
  EXPECT_DOUBLE_EQ(M.Network.Nic.AlphaGdr.Value, 2e-6);
  EXPECT_TRUE(M.Network.Nic.GpuDirectRdma);
  EXPECT_EQ(M.Node.Peer.Kind, PeerLinkKind::NVLink);
  EXPECT_EQ(M.Node.Peer.Topology, PeerTopology::FullyConnected);
  EXPECT_EQ(M.Gpu.KernelRate.Dim, Dimension::Bandwidth);
  EXPECT_EQ(M.Mpi.HostBounce.size(), 5u);
  EXPECT_TRUE(M.Mpi.HostBounce.count(Collective::ReduceScatterBlock));
  EXPECT_FALSE(M.Mpi.HostBounce.count(Collective::Bcast));
  // Provenance: positions and the estimate share.
  EXPECT_EQ(M.Gpu.Peak[0].Loc.Line,
            lineOf(readFile(machinePath("musica-h100.yaml")), "fp64:  {"));
  EXPECT_GT(M.estimateShare(), 0.3);
  EXPECT_LT(M.estimateShare(), 1.0);
}

TEST(MachineFile, DgxUsesAnNvSwitch) {
  ParsedFile F = loadMachineFile(machinePath("dgx-a100.yaml"));
  ASSERT_TRUE(F.ok());
  EXPECT_EQ(F.M.gpusPerNode(), 8);
  EXPECT_EQ(F.M.Node.Peer.Topology, PeerTopology::Switch);
  EXPECT_DOUBLE_EQ(F.M.Network.Nic.Bandwidth.Value, 25e9); // 200 Gbit/s
}

TEST(MachineFile, NetworkOverlayReplacesTheNetwork) {
  ParsedFile M = loadMachineFile(machinePath("h200-node.yaml"));
  ParsedFile N = loadMachineFile(machinePath("slingshot.yaml"));
  ASSERT_TRUE(M.ok() && N.ok());
  std::size_t Before = M.M.Quantities.size();
  applyNetwork(M.M, N.M);
  EXPECT_EQ(M.M.Network.Topology.Kind, TopologyKind::Dragonfly);
  EXPECT_EQ(M.M.Network.Ramc.Provider, "cxi");
  // The IB network's 14 numbers give way to slingshot's 16.
  EXPECT_EQ(M.M.Quantities.size(), Before - 14 + 16);
  for (const NamedQuantity &NQ : M.M.Quantities)
    if (NQ.Path.rfind("network.", 0) == 0)
      EXPECT_EQ(NQ.Q.Loc.File, machinePath("slingshot.yaml")) << NQ.Path;
}

TEST(MachineFile, UnknownKeyNamesLineAndColumn) {
  std::string Text = mutated("gpu:\n", "gpu:\n  turbo_boost: true\n");
  Diagnostic D = onlyError(Text, "unknown key 'gpu.turbo_boost'");
  EXPECT_EQ(D.Loc.Line, lineOf(Text, "turbo_boost"));
  EXPECT_EQ(D.Loc.Column, 3);
  EXPECT_EQ(D.Loc.File, "m.yaml");
  EXPECT_EQ(D.str().rfind("m.yaml:" + std::to_string(D.Loc.Line) +
                              ":3: "
                              "error: ",
                          0),
            0u);
}

TEST(MachineFile, UnknownKeyInsideANumber) {
  std::string Text =
      mutated("fp64:  {value: 33.5, unit: TFLOP/s,",
              "fp64:  {value: 33.5, units: TFLOP/s, unit: TFLOP/s,");
  Diagnostic D = onlyError(Text, "unknown key 'units'");
  EXPECT_EQ(D.Loc.Line, lineOf(Text, "units:"));
}

TEST(MachineFile, MissingKeyIsNamed) {
  std::string Text =
      mutated("    sync:         {value: 2, unit: us, kind: estimate, source: "
              "\"idle-stream sync 0.46 us "
              "(github.com/JuliaGPU/CUDA.jl/issues/279) plus event wait; "
              "calibrate\"}\n",
              "");
  Diagnostic D = onlyError(Text, "missing key 'gpu.overheads.sync'");
  EXPECT_EQ(D.Loc.Line, lineOf(Text, "    launch:"));
}

TEST(MachineFile, WrongUnitForTheQuantity) {
  std::string Text = mutated("bandwidth: {value: 130, unit: GB/s",
                             "bandwidth: {value: 130, unit: us");
  Diagnostic D = onlyError(Text, "'us' is not a unit of bandwidth for "
                                 "'node.gpu_links.bandwidth'");
  EXPECT_EQ(D.Loc.Line, lineOf(Text, "value: 130, unit: us"));
  EXPECT_NE(D.Message.find("Gbit/s"), std::string::npos);
}

TEST(MachineFile, UnknownUnit) {
  std::string Text = mutated("{value: 0.6, unit: us, kind: code",
                             "{value: 0.6, unit: microseconds, kind: code");
  onlyError(Text, "'microseconds' is not a unit of time");
}

TEST(MachineFile, NegativeValue) {
  std::string Text = mutated("{value: 0.6, unit: us, kind: code",
                             "{value: -0.6, unit: us, kind: code");
  Diagnostic D = onlyError(Text, "'network.nic.latency' = -0.6 us is negative");
  EXPECT_EQ(D.Loc.Line, lineOf(Text, "value: -0.6"));
}

TEST(MachineFile, ImplausibleValue) {
  std::string Text = mutated("bandwidth:  {value: 3.35, unit: TB/s",
                             "bandwidth:  {value: 3350, unit: TB/s");
  onlyError(Text, "'gpu.memory.bandwidth' = 3350 TB/s is implausible");
  Text = mutated("efficiency: {value: 0.867, unit: ratio",
                 "efficiency: {value: 86.7, unit: ratio");
  onlyError(Text, "is implausible; expected > 0 and <= 1");
  // The same efficiency written in percent is fine.
  Text = mutated("efficiency: {value: 0.867, unit: ratio",
                 "efficiency: {value: 86.7, unit: \"%\"");
  EXPECT_TRUE(parseMachineText(Text, "m.yaml").ok());
}

TEST(MachineFile, CountsMustBeWhole) {
  std::string Text = mutated("count:                  {value: 132,",
                             "count:                  {value: 132.5,");
  onlyError(Text, "'gpu.sm.count' must be a whole number");
}

TEST(MachineFile, ValueWithTheUnitInside) {
  std::string Text = mutated("{value: 24756, unit: MB/s",
                             "{value: \"24756 MB/s\", unit: MB/s");
  onlyError(Text, "must be a finite number (got '24756 MB/s'; put the unit "
                  "in 'unit')");
}

TEST(MachineFile, KindAndSourceAreRequired) {
  std::string Text =
      mutated("kind: spec, source: \"hpctech.co.jp H100 spec table; "
              "glennklockwood\"}",
              "kind: guess, source: \"hpctech.co.jp\"}");
  onlyError(Text, "'gpu.sm.count.kind' must be one of spec, measured, code, "
                  "estimate");
  Text = mutated("{value: 0.6, unit: us, kind: code, source: \"UCX v1.15.0 "
                 "src/uct/ib/base/ib_iface.c latency model\"}",
                 "{value: 0.6, unit: us, kind: code}");
  onlyError(Text, "'network.nic.latency' lacks 'source'");
  Text = mutated("{value: 0.6, unit: us, kind: code, source: \"UCX v1.15.0 "
                 "src/uct/ib/base/ib_iface.c latency model\"}",
                 "0.6");
  onlyError(Text, "'network.nic.latency' must be written {value, unit, kind, "
                  "source}");
}

TEST(MachineFile, DuplicateKey) {
  std::string Text = mutated("  gpus: {value: 4,",
                             "  gpus: {value: 2, unit: count, kind: spec, "
                             "source: x}\n  gpus: {value: 4,");
  Diagnostic D = onlyError(Text, "duplicate key 'node.gpus'");
  EXPECT_EQ(D.Loc.Line, lineOf(Text, "  gpus: {value: 4,"));
}

TEST(MachineFile, LinkTypeAndTopologyMustAgree) {
  std::string Text = mutated("    type: nvlink\n    topology: fully-connected",
                             "    type: none\n    topology: switch");
  ParsedFile F = parseMachineText(Text, "m.yaml");
  ASSERT_FALSE(F.ok());
  bool Found = false;
  for (const Diagnostic &D : F.Errors)
    Found |= D.Message.find("type 'none' goes with topology 'none'") !=
             std::string::npos;
  EXPECT_TRUE(Found);
}

TEST(MachineFile, BadChoice) {
  std::string Text = mutated("kind: fat-tree", "kind: torus");
  Diagnostic D = onlyError(Text, "'network.topology.kind' must be one of: "
                                 "fat-tree, dragonfly, flat");
  EXPECT_EQ(D.Loc.Line, lineOf(Text, "kind: torus"));
}

TEST(MachineFile, NetworkFiguresSayWhatTheNicFiguresAre) {
  // osu_bw / osu_latency results on MUSICA, line rates on the DGX; a file
  // without the key holds line rates (files written before it existed).
  EXPECT_EQ(loadMachineFile(machinePath("musica-h100.yaml")).M.Network.Figures,
            NetworkFigures::Mpi);
  EXPECT_EQ(loadMachineFile(machinePath("dgx-a100.yaml")).M.Network.Figures,
            NetworkFigures::Link);
  ParsedFile Old = parseMachineText(mutated("  figures: mpi\n", ""), "m.yaml");
  ASSERT_TRUE(Old.ok());
  EXPECT_EQ(Old.M.Network.Figures, NetworkFigures::Link);
  std::string Text = mutated("figures: mpi", "figures: osu");
  Diagnostic D = onlyError(Text, "'network.figures' must be one of: link, mpi");
  EXPECT_EQ(D.Loc.Line, lineOf(Text, "figures: osu"));
}

TEST(MachineFile, UnknownCollectiveInHostBounce) {
  std::string Text = mutated("scan, exscan]", "scan, exscan, allsum]");
  onlyError(Text, "'allsum' in 'mpi.host_bounce' is not a collective");
}

TEST(MachineFile, SyntaxErrorHasAPosition) {
  std::string Text = mutated("  gpus: {value: 4,", "  gpus: {value: [4,");
  ParsedFile F = parseMachineText(Text, "m.yaml");
  ASSERT_EQ(F.Errors.size(), 1u);
  EXPECT_NE(F.Errors[0].Message.find("YAML syntax error"), std::string::npos);
  EXPECT_GE(F.Errors[0].Loc.Line, lineOf(Text, "gpus: {value: [4,"));
}

TEST(MachineFile, SchemaAndEmptyFile) {
  onlyError(mutated("schema: orrery-machine/1", "schema: orrery-machine/9"),
            "unsupported schema 'orrery-machine/9'");
  onlyError("", "the file is empty");
  onlyError("- a\n- b\n", "must be a mapping");
  ParsedFile Missing = loadMachineFile("/nonexistent/machine.yaml");
  ASSERT_EQ(Missing.Errors.size(), 1u);
  EXPECT_NE(Missing.Errors[0].str().find("cannot open"), std::string::npos);
}

TEST(MachineFile, ErrorsAreCollectedNotStoppedAtTheFirst) {
  std::string Text = mutated("kind: fat-tree", "kind: torus");
  Text.replace(Text.find("{value: 0.6, unit: us"), 21, "{value: -1, unit: us");
  ParsedFile F = parseMachineText(Text, "m.yaml");
  EXPECT_EQ(F.Errors.size(), 2u);
}

namespace {
const char *ShmLatency =
    "    latency:   {value: 0.4, unit: us, kind: estimate, source: "
    "\"osu_latency H H 8 B inside a node: 0.2-0.5 us for shared-memory MPI "
    "(mvapich.cse.ohio-state.edu/performance); calibrate with osu_latency H "
    "H on one node\"}\n";

/// MUSICA with node.shm_transport.bands set to \p Bands (YAML list lines).
std::string withShmBands(const std::string &Bands) {
  return mutated(ShmLatency, std::string(ShmLatency) + "    bands:\n" + Bands);
}
} // namespace

TEST(MachineFile, SharedMemoryWithoutBandsIsOneBand) {
  ParsedFile F = loadMachineFile(machinePath("musica-h100.yaml"));
  ASSERT_TRUE(F.ok());
  const SharedMemoryModel &S = F.M.Node.SharedMemory;
  EXPECT_TRUE(S.Bands.empty());
  for (double Bytes : {0.0, 1e3, 1e9}) {
    EXPECT_DOUBLE_EQ(S.at(Bytes).first, 0.4e-6);
    EXPECT_DOUBLE_EQ(S.at(Bytes).second, 16e9);
  }
  EXPECT_DOUBLE_EQ(S.maxLatency(), 0.4e-6);
  EXPECT_DOUBLE_EQ(S.maxBandwidth(), 16e9);
}

TEST(MachineFile, SharedMemoryBandsBySize) {
  ParsedFile F = parseMachineText(
      withShmBands(
          "      - from:      {value: 4, unit: KiB, kind: estimate, source: "
          "\"eager limit\"}\n"
          "        latency:   {value: 3, unit: us, kind: measured, source: "
          "\"fit\"}\n"
          "        bandwidth: {value: 9, unit: GB/s, kind: measured, source: "
          "\"fit\"}\n"
          "      - from:      {value: 64, unit: KiB, kind: estimate, source: "
          "\"single copy\"}\n"
          "        latency:   {value: 2, unit: us, kind: measured, source: "
          "\"fit\"}\n"
          "        bandwidth: {value: 20, unit: GB/s, kind: measured, source: "
          "\"fit\"}\n"),
      "m.yaml");
  ASSERT_TRUE(F.ok()) << F.Errors.front().str();
  const SharedMemoryModel &S = F.M.Node.SharedMemory;
  ASSERT_EQ(S.Bands.size(), 2u);
  EXPECT_DOUBLE_EQ(S.at(4095).first, 0.4e-6);
  EXPECT_DOUBLE_EQ(S.at(4096).first, 3e-6);
  EXPECT_DOUBLE_EQ(S.at(4096).second, 9e9);
  EXPECT_DOUBLE_EQ(S.at(65535).second, 9e9);
  EXPECT_DOUBLE_EQ(S.at(65536).first, 2e-6);
  EXPECT_DOUBLE_EQ(S.at(1e9).second, 20e9);
  // The platform's links carry the largest figures of any band.
  EXPECT_DOUBLE_EQ(S.maxLatency(), 3e-6);
  EXPECT_DOUBLE_EQ(S.maxBandwidth(), 20e9);
  // A core's copy runs at the single-copy band's rate, whatever the size.
  EXPECT_DOUBLE_EQ(S.copySeconds(1e3), 1e3 / 20e9);
  EXPECT_DOUBLE_EQ(S.copySeconds(0), 0);
  bool Listed = false;
  for (const NamedQuantity &Q : F.M.Quantities)
    Listed |= Q.Path == "node.shm_transport.bands[1].bandwidth";
  EXPECT_TRUE(Listed);
}

TEST(MachineFile, SharedMemoryBandsMustIncrease) {
  std::string Band = "      - from:      {value: 64, unit: KiB, kind: "
                     "estimate, source: \"x\"}\n"
                     "        latency:   {value: 3, unit: us, kind: "
                     "measured, source: \"fit\"}\n"
                     "        bandwidth: {value: 9, unit: GB/s, kind: "
                     "measured, source: \"fit\"}\n";
  std::string Text = withShmBands(Band + Band);
  Diagnostic D = onlyError(
      Text, "'node.shm_transport.bands[1].from' must be above the previous");
  EXPECT_EQ(D.Loc.File, "m.yaml");
  EXPECT_GT(D.Loc.Line, 0);
}

TEST(MachineFile, SharedMemoryBandNeedsAllThree) {
  onlyError(withShmBands("      - from: {value: 4, unit: KiB, kind: "
                         "estimate, source: \"x\"}\n"
                         "        latency: {value: 3, unit: us, kind: "
                         "measured, source: \"fit\"}\n"),
            "missing key 'node.shm_transport.bands[0].bandwidth'");
  onlyError(withShmBands("      from: 4096\n"),
            "'node.shm_transport.bands' must be a list");
  onlyError(withShmBands("      - from: {value: 0, unit: B, kind: "
                         "estimate, source: \"x\"}\n"
                         "        latency: {value: 3, unit: us, kind: "
                         "measured, source: \"fit\"}\n"
                         "        bandwidth: {value: 9, unit: GB/s, kind: "
                         "measured, source: \"fit\"}\n"),
            "'node.shm_transport.bands[0].from' = 0 B is implausible");
}
