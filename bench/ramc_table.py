"""One table of bench/ramc.sh: medians and spread of interleaved rounds.

  ramc_table.py [--goals] [--csv FILE --transport T] TITLE DIR ROUNDS RAMC MPI RAW

Reads DIR/NAME.rK (K = 1..ROUNDS) for each of the three runs, each holding
lines "size=N bw_MBps=B lat_us=L", and prints per size the median
bandwidth and latency of each, the ratios of the medians RAMC/MPI and
RAMC/raw, the medians of the rounds' own ratios (round K of each program
ran side by side, so a slow minute of the machine cancels out: the figure
to read on a noisy machine), and the spread of RAMC's and MPI's bandwidth
over the rounds ((max - min) / median). With --goals, then one line per
goal of docs/performance.md "RAMC" (RAMC >= MPI from 1 B to 4 KiB, >= 0.9x
raw from 4 KiB, latency <= MPI's up to 64 KiB), judged on the medians of
the rounds' own ratios (latency: of the medians), naming each size that
misses and in how many rounds it held. With --csv, appends every round's
figures to FILE (columns transport,table,impl,size,round,bw_MBps,lat_us).
"""
import argparse
import os
import re
import statistics
import sys

LINE = re.compile(r"^size=(\d+) bw_MBps=(\S+) lat_us=(\S+)")


def rounds(d, name, n):
    """{size: [(bw, lat) per round]}"""
    out = {}
    for k in range(1, n + 1):
        path = os.path.join(d, "%s.r%d" % (name, k))
        with open(path) as f:
            for line in f:
                m = LINE.match(line)
                if m:
                    out.setdefault(int(m.group(1)), []).append(
                        (float(m.group(2)), float(m.group(3))))
    return out


def med(vals):
    return statistics.median(vals) if vals else 0.0


def round_ratio(a, b):
    """Median over the rounds both ran of a's bandwidth / b's."""
    return med([x[0] / y[0] for x, y in zip(a, b) if y[0] > 0])


def spread(vals):
    m = med(vals)
    return (max(vals) - min(vals)) / m if vals and m > 0 else 0.0


# Bandwidth goals: (name, smallest size, largest size or None, least
# per-round ratio of RAMC to the other program, its index: 1 MPI, 2 raw).
BW_GOALS = [
    ("RAMC >= MPI RMA, 1 B - 4 KiB", 1, 4096, 1.0, 1),
    ("RAMC >= 0.9x raw fi_write from 4 KiB", 4096, None, 0.9, 2),
]
LAT_GOAL = "RAMC latency <= MPI's up to 64 KiB"
LAT_GOAL_MAX = 65536


def judge(name, sizes, miss):
    """The goal's line: met, missed at the sizes where miss(size) says why,
    or not measured."""
    if not sizes:
        return "  goal %s: not measured (no size in range)" % name
    misses = [m for m in map(miss, sizes) if m]
    return "  goal %s: %s" % (
        name, "missed at " + ", ".join(misses) if misses else "met")


def goal_lines(data, sizes):
    """One line per goal of docs/performance.md "RAMC"."""
    out = []
    for name, lo, hi, least, other in BW_GOALS:
        def miss(s):
            pairs = [(x[0], y[0]) for x, y in zip(data[0][s], data[other][s])
                     if y[0] > 0]
            r = med([a / b for a, b in pairs])
            if r >= least:
                return None
            held = sum(1 for a, b in pairs if a / b >= least)
            return "%d (%.2f, %d of %d rounds held)" % (s, r, held, len(pairs))
        out.append(judge(name, [s for s in sizes if lo <= s and
                                (hi is None or s <= hi)], miss))

    def lat_miss(s):
        ramc = med([l for _, l in data[0][s]])
        mpi = med([l for _, l in data[1][s]])
        return "%d (%.2f > %.2f us)" % (s, ramc, mpi) if ramc > mpi else None
    out.append(judge(LAT_GOAL, [s for s in sizes if s <= LAT_GOAL_MAX],
                     lat_miss))
    return out


def main(argv):
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--goals", action="store_true")
    ap.add_argument("--csv")
    ap.add_argument("--transport", default="")
    ap.add_argument("title")
    ap.add_argument("dir")
    ap.add_argument("rounds", type=int)
    ap.add_argument("names", nargs=3)
    a = ap.parse_args(argv)
    title, d, n, names = a.title, a.dir, a.rounds, a.names
    csv, transport = a.csv, a.transport
    data = [rounds(d, name, n) for name in names]
    print()
    print("%s (medians of %d rounds; spread = (max - min) / median)" % (title, n))
    print("%9s | %11s %11s %11s | %9s %9s | %9s %9s | %9s %9s %9s | %7s %7s" % (
        "size", "RAMC MB/s", "MPI MB/s", "raw MB/s", "RAMC/MPI", "RAMC/raw",
        "/MPI rnd", "/raw rnd", "RAMC us", "MPI us", "raw us", "RAMC sp",
        "MPI sp"))
    sizes = sorted(set(data[0]) & set(data[1]) & set(data[2]))
    for s in sizes:
        bw = [med([b for b, _ in x[s]]) for x in data]
        lat = [med([l for _, l in x[s]]) for x in data]
        print("%9d | %11.2f %11.2f %11.2f | %9.2f %9.2f | %9.2f %9.2f |"
              " %9.2f %9.2f %9.2f | %6.0f%% %6.0f%%" % (
                  s, bw[0], bw[1], bw[2],
                  bw[0] / bw[1] if bw[1] > 0 else 0,
                  bw[0] / bw[2] if bw[2] > 0 else 0,
                  round_ratio(data[0][s], data[1][s]),
                  round_ratio(data[0][s], data[2][s]),
                  lat[0], lat[1], lat[2],
                  100 * spread([b for b, _ in data[0][s]]),
                  100 * spread([b for b, _ in data[1][s]])))
    if a.goals:
        print("\n".join(goal_lines(data, sizes)))
    if csv:
        new = not os.path.exists(csv)
        with open(csv, "a") as f:
            if new:
                f.write("transport,table,impl,size,round,bw_MBps,lat_us\n")
            for impl, x in zip(("ramc", "mpi", "raw"), data):
                for s in sizes:
                    for k, (b, l) in enumerate(x[s], 1):
                        f.write('%s,"%s",%s,%d,%d,%g,%g\n' % (
                            transport, title.replace('"', "'"), impl, s, k,
                            b, l))


if __name__ == "__main__":
    main(sys.argv[1:])
