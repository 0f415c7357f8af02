#!/usr/bin/env python3
"""Round trip: a machine file's benchmark figures must come back out.

    osu_roundtrip.py ORRERY_RUN PROGRAM MACHINE [--markdown]
                     [--network MODE] [--rows FILE]

Finds every figure of MACHINE whose source attributes it to an OSU-style
benchmark, simulates that benchmark with PROGRAM (osu-semantics.cu built in
skeleton mode) under ORRERY_RUN in its default network mode (or --network
MODE), and prints one line per figure: name, benchmark, expected, simulated, error. Exits 1 when one is off
by more than 10 % (a range "A-B us" in a source: outside [A, B] by more than
10 %), or when the file cites none. --markdown prints table rows instead;
--rows FILE writes them to FILE as well (bench/figures.py assembles
docs/figures.md from them).

The checks, with the benchmark each source names:
  network.nic.bandwidth      "osu_bw D D 4 MiB"  osu_bw D D, two nodes
  network.nic.alpha_gdr      "osu_latency D D A-B us"  8 B D D, two nodes
  node.shm_transport.latency   "osu_latency H H" 8 B H H, one node
  node.shm_transport.bandwidth "osu_bw H H 4 MiB" osu_bw H H, one node
  node.gpu_links.bandwidth   "p2pBandwidthLatencyTest ... bidirectional":
                             osu_bibw D D 4 MiB, one node, against twice it
and two that every file with GPUs gets: osu_bw D D on one node is at most
the NVLink (or PCIe) figure, and osu_iallreduce on 8 B of device memory
costs at least what osu_allreduce costs (2 ranks on 2 nodes, and 8 ranks).
"""
import re
import subprocess
import sys

import yaml

TOL = 0.10
MIB4 = 4 * 1024 * 1024
UNITS = {"B/s": 1, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9, "TB/s": 1e12,
         "Gbit/s": 1e9 / 8, "Mbit/s": 1e6 / 8,
         "s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


def si(q):
    return q["value"] * UNITS[q["unit"]]


def run(orrery_run, program, machine, network, what, space, size, np, rpn):
    cmd = [orrery_run, "-np", str(np), "--ranks-per-node", str(rpn),
           "--machine", machine] + (["--network", network] if network else [])
    cmd += [program, what, space, str(size)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == what:
            return float(parts[1])
    sys.exit("no '%s' line from: %s\n%s" % (what, " ".join(cmd), out.stdout))


def main():
    args = [a for a in sys.argv[1:] if a != "--markdown"]
    markdown = "--markdown" in sys.argv

    def option(name):
        """The value after NAME in args (removed from them), or None."""
        if name not in args:
            return None
        i = args.index(name)
        if i + 1 >= len(args):
            sys.exit(__doc__)
        value = args[i + 1]
        del args[i:i + 2]
        return value

    rows_file = option("--rows")
    network = option("--network")
    if len(args) != 3:
        sys.exit(__doc__)
    orrery_run, program, machine = args
    with open(machine) as f:
        m = yaml.safe_load(f)
    name = m.get("name", machine)
    node, net = m.get("node", {}), m.get("network", {})
    gpus = int(node.get("gpus", {}).get("value", 1))
    bench = lambda *a: run(orrery_run, program, machine, network, *a)
    rows, failed = [], False

    def report(figure, source, expected, simulated, unit, lo=None, hi=None):
        nonlocal failed
        if lo is not None:  # a range
            err = 0.0 if lo <= simulated <= hi else (
                (simulated - hi) / hi if simulated > hi else
                (simulated - lo) / lo)
            want = "%g-%g" % (lo, hi)
        else:
            err = (simulated - expected) / expected
            want = "%.4g" % expected
        ok = abs(err) <= TOL
        failed |= not ok
        rows.append(("%s %s %s: expected %s %s, simulated %.4g %s, "
                     "error %+.1f %% %s" %
                     ("ok  " if ok else "FAIL", name, figure, want, unit,
                      simulated, unit, 100 * err, source),
                     "| %s | `%s` | %s | %s %s | %.4g %s | %+.1f %% |" %
                     (name, figure, source, want, unit, simulated, unit,
                      100 * err)))

    nic = net.get("nic", {})
    src = nic.get("bandwidth", {}).get("source", "")
    if "osu_bw D D" in src:
        report("network.nic.bandwidth", "osu_bw D D 4 MiB, 2 nodes",
               si(nic["bandwidth"]) / 1e6, bench("bw", "D", MIB4, 2, 1),
               "MB/s")
    src = nic.get("alpha_gdr", {}).get("source", "")
    r = re.search(r"osu_latency D D ([0-9.]+)-([0-9.]+) us", src)
    if r:
        report("network.nic.alpha_gdr", "osu_latency D D 8 B, 2 nodes", None,
               bench("latency", "D", 8, 2, 1), "us",
               float(r.group(1)), float(r.group(2)))
    shm = node.get("shm_transport", {})
    if "osu_latency H H" in shm.get("latency", {}).get("source", ""):
        report("node.shm_transport.latency", "osu_latency H H 8 B, 1 node",
               si(shm["latency"]) * 1e6, bench("latency", "H", 8, 2, 2), "us")
    if "osu_bw H H" in shm.get("bandwidth", {}).get("source", ""):
        report("node.shm_transport.bandwidth", "osu_bw H H 4 MiB, 1 node",
               si(shm["bandwidth"]) / 1e6, bench("bw", "H", MIB4, 2, 2),
               "MB/s")
    links = node.get("gpu_links", {})
    if "p2pBandwidthLatencyTest" in links.get("bandwidth", {}).get(
            "source", "") and "bidirectional" in links["bandwidth"]["source"]:
        report("node.gpu_links.bandwidth", "osu_bibw D D 4 MiB, 1 node (2x)",
               2 * si(links["bandwidth"]) / 1e6,
               bench("bibw", "D", MIB4, 2, 2), "MB/s")
    if not rows:
        sys.exit("%s: no figure attributed to a benchmark" % machine)
    if gpus > 1:
        peer = links.get("bandwidth") if links.get("type") != "none" else None
        limit = si(peer) if peer else si(node["pcie"]["d2h_bandwidth"])
        got = bench("bw", "D", MIB4, 2, 2)
        ok = got <= limit / 1e6 * (1 + 1e-3)
        failed |= not ok
        rows.append(("%s %s osu_bw D D 1 node: %.4g MB/s, link %.4g MB/s" %
                     ("ok  " if ok else "FAIL", name, got, limit / 1e6),
                     "| %s | osu_bw D D 4 MiB, 1 node | at most the GPU "
                     "link | %.4g MB/s | %.4g MB/s | %s |" %
                     (name, limit / 1e6, got, "ok" if ok else "FAIL")))
    # osu_iallreduce against osu_allreduce, 8 B of device memory: the
    # nonblocking form must cost at least the blocking one. On two ranks of
    # two nodes both are one exchange (it once skipped the host bounce); on
    # 8 ranks SMPI 3.32's MPI_Iallreduce is one direct exchange, which the
    # runtime holds to recursive doubling's three rounds.
    for ranks, rpn, checked in ((2, 1, True), (8, max(1, min(gpus, 4)),
                                               True)):
        blocking = bench("allreduce", "D", 8, ranks, rpn)
        nonblocking = bench("iallreduce", "D", 8, ranks, rpn)
        ok = nonblocking >= blocking * (1 - 1e-3)
        failed |= checked and not ok
        verdict = ("ok" if ok else "FAIL") if checked else "info"
        rows.append(("%-4s %s osu_iallreduce %d ranks %.4g us, "
                     "osu_allreduce %.4g us" %
                     (verdict, name, ranks, nonblocking, blocking),
                     "| %s | osu_iallreduce vs osu_allreduce D D 8 B, %d "
                     "ranks | iallreduce >= allreduce | %.4g us | %.4g us "
                     "| %s |" % (name, ranks, blocking, nonblocking, verdict)))
    print("\n".join(r[1] if markdown else r[0] for r in rows))
    if rows_file:
        with open(rows_file, "w") as f:
            f.write("".join(r[1] + "\n" for r in rows))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
