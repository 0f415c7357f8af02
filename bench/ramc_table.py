"""One table of bench/ramc.sh: medians and spread of interleaved rounds.

  ramc_table.py TITLE DIR ROUNDS RAMC MPI RAW [CSV TRANSPORT]

Reads DIR/NAME.rK (K = 1..ROUNDS) for each of the three runs, each holding
lines "size=N bw_MBps=B lat_us=L", and prints per size the median
bandwidth and latency of each, the ratios of the medians RAMC/MPI and
RAMC/raw, the medians of the rounds' own ratios (round K of each program
ran side by side, so a slow minute of the machine cancels out: the figure
to read on a noisy machine), and the spread of RAMC's and MPI's bandwidth
over the rounds ((max - min) / median). With CSV, appends every round's figures to that file
(columns transport,table,impl,size,round,bw_MBps,lat_us).
"""
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


def main(argv):
    title, d, n = argv[0], argv[1], int(argv[2])
    names = argv[3:6]
    csv = argv[6] if len(argv) > 6 else None
    transport = argv[7] if len(argv) > 7 else ""
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
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    main(sys.argv[1:])
