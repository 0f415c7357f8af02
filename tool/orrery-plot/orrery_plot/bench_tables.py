"""Plots of benchmark tables: bench/validate.sh's points (published vs
predicted) and bench/ramc.sh's rounds (RAMC, MPI RMA and raw libfabric)."""
import os
import statistics
import sys

from orrery_plot.common import finite, publish, read_table, save, \
    spans_decade


def read_validation(csv_path):
    """bench/validate.sh's points by series: lists of (x, measured,
    predicted, native or None)."""
    series = {}

    def take(reader, row):
        point = tuple(finite(row.get(k) or "") for k in
                      ("x", "measured", "predicted"))
        native = row.get("native")
        if None in point or not isinstance(row.get("series"), str) or \
                (native and finite(native) is None):
            sys.exit("orrery-plot: error: %s:%d: a row lacks a series "
                     "and finite x, measured and predicted: %r"
                     % (csv_path, reader.line_num, row))
        series.setdefault(row["series"], []).append(
            point + (finite(native) if native else None,))
    return read_table(csv_path, take, series, "points", "bench/validate.sh")


def plot_validation(plt, csv_path, outdir, formats):
    """One plot per source of bench/validate.sh's points (series
    "<source>:<kernel>", x, measured, predicted[, native]): published and
    predicted values of each kernel against x, in OUTDIR/<source>.svg."""
    series = read_validation(csv_path)
    os.makedirs(outdir, exist_ok=True)
    written = []
    sources = {}
    for name, points in series.items():
        source, _, kernel = name.partition(":")
        sources.setdefault(source, []).append((kernel or source, points))
    for source, kernels in sources.items():
        fig, ax = plt.subplots(figsize=(6.4, 3.8))
        xs_all = []
        for i, (kernel, points) in enumerate(kernels):
            points.sort()
            xs = [p[0] for p in points]
            xs_all += xs
            color = "C%d" % (i % 10)
            if len(xs) == 1:  # one point per kernel: bars side by side
                ax.bar(i - 0.2, points[0][1], 0.4, color=color, alpha=0.5,
                       gid="series:published:" + kernel)
                ax.bar(i + 0.2, points[0][2], 0.4, color=color,
                       gid="series:predicted:" + kernel)
                continue
            ax.plot(xs, [p[1] for p in points], "o", ms=3, color=color,
                    label=kernel + " published",
                    gid="series:published:" + kernel)
            ax.plot(xs, [p[2] for p in points], "-", color=color,
                    label=kernel + " Orrery", gid="series:predicted:" + kernel)
            native = [(p[0], p[3]) for p in points if p[3] is not None]
            if native:
                ax.plot([n[0] for n in native], [n[1] for n in native], "x",
                        color=color, label=kernel + " measured here",
                        gid="series:native:" + kernel)
        if all(len(points) == 1 for _, points in kernels):
            ax.set_xticks(range(len(kernels)))
            ax.set_xticklabels([k for k, _ in kernels])
            ax.set_ylabel("published (light) / Orrery (dark)")
        else:
            if spans_decade(xs_all):
                ax.set_xscale("log")
            ax.legend(fontsize=7, ncol=2)
        ax.set_title(source, fontsize=9)
        ax.grid(True, alpha=0.3)
        save(fig, outdir, source.replace("/", "_"), formats, written)
        plt.close(fig)
    publish(written)
    for w in written:
        print(w)
    return 0


RAMC_COLUMNS = ("transport", "table", "impl", "size", "round", "bw_MBps",
                "lat_us")
RAMC_IMPLS = {"ramc": "RAMC", "mpi": "MPI RMA", "raw": "raw fi_write"}


def read_ramc(csv_path):
    """bench/ramc.sh's rounds (RAMC_BENCH_CSV): {(transport, table):
    {impl: {size: [(bandwidth MB/s, latency us) per round]}}}."""
    tables = {}

    def take(reader, row):
        size = row.get("size") or ""
        bw, lat = (finite(row.get(k) or "") for k in ("bw_MBps", "lat_us"))
        impl = row.get("impl")
        if not (size.isascii() and size.isdigit()) or int(size) <= 0 or \
                bw is None or lat is None or bw < 0 or lat < 0 or \
                impl not in RAMC_IMPLS or \
                not isinstance(row.get("transport"), str) or \
                not isinstance(row.get("table"), str):
            sys.exit("orrery-plot: error: %s:%d: a row needs a transport, "
                     "a table, impl ramc, mpi or raw, a positive whole "
                     "size and finite, non-negative bw_MBps and lat_us: "
                     "%r" % (csv_path, reader.line_num, row))
        key = (row["transport"], row["table"])
        tables.setdefault(key, {}).setdefault(impl, {}).setdefault(
            int(size), []).append((bw, lat))
    return read_table(csv_path, take, tables, "rounds",
                      "RAMC_BENCH_CSV=FILE bench/ramc.sh", RAMC_COLUMNS)


def plot_ramc(plt, csv_path, outdir, formats):
    """One figure per table of bench/ramc.sh: bandwidth and latency against
    message size, the median of the rounds as a line and their range as a
    band, for RAMC, MPI RMA and the raw loop; OUTDIR/ramc-TRANSPORT-N.*."""
    tables = read_ramc(csv_path)
    os.makedirs(outdir, exist_ok=True)
    written = []
    numbered = {}
    for (transport, title), impls in tables.items():
        numbered[transport] = numbered.get(transport, 0) + 1
        fig, (bw_ax, lat_ax) = plt.subplots(1, 2, figsize=(9.6, 3.6))
        for i, impl in enumerate(k for k in RAMC_IMPLS if k in impls):
            sizes = sorted(impls[impl])
            color = "C%d" % i
            for ax, col, unit in ((bw_ax, 0, "bw"), (lat_ax, 1, "lat")):
                vals = [[r[col] for r in impls[impl][s]] for s in sizes]
                ax.plot(sizes, [statistics.median(v) for v in vals], "o-",
                        ms=3, color=color, label=RAMC_IMPLS[impl],
                        gid="series:%s:%s" % (unit, impl))
                ax.fill_between(sizes, [min(v) for v in vals],
                                [max(v) for v in vals], color=color,
                                alpha=0.2, gid="range:%s:%s" % (unit, impl))
        for ax, label in ((bw_ax, "bandwidth, MB/s (median, range)"),
                          (lat_ax, "latency, us (median, range)")):
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("message size, bytes")
            ax.set_ylabel(label)
            ax.grid(True, alpha=0.3)
        bw_ax.legend(fontsize=7)
        fig.suptitle(title, fontsize=8)
        save(fig, outdir, "ramc-%s-%d" % (transport or "transport",
                                          numbered[transport]),
             formats, written)
        plt.close(fig)
    publish(written)
    for w in written:
        print(w)
    return 0
