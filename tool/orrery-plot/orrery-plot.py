#!/usr/bin/env python3
"""orrery-plot: plots of an orrery-sweep output directory (docs/sweeps.md).

  orrery-plot DIR [-o OUTDIR] [--format svg,png] [--top N]
              [--measured M.json ...]
  orrery-plot --report REPORT.json -o FILE.svg|.png   (one run, orrery-run --plot)
  orrery-plot --validation POINTS.csv -o OUTDIR       (bench/validate.sh)
  orrery-plot --ramc ROUNDS.csv -o OUTDIR             (bench/ramc.sh)

Reads DIR/results.csv and writes into OUTDIR (default DIR/plots):
  scaling.*    simulated time, speedup and parallel efficiency vs GPUs,
               one line per machine file (and other varied setting)
  breakdown.*  time per rank by category, stacked, one bar per point
  kernels.*    the top kernels by predicted device time, all points summed
  fidelity.*   with --measured: simulated and measured time vs ranks, and
               the relative error (simulated - measured) / measured
Every series carries an SVG id (gid) naming it: "series:LABEL" for lines,
"breakdown:CATEGORY:POINT" for each stacked bar, "kernel:NAME (SITE)" for
the kernel bars; fidelity.* has "series:simulated:LABEL",
"series:measured" and "series:error:LABEL".
"""
import argparse
import csv
import json
import os
import sys

# The modes' code lives in the orrery_plot package, installed (and built)
# in lib/orrery/python next to this script's bin/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                os.pardir, "lib", "orrery", "python"))
# pylint: disable=wrong-import-position
from orrery_plot.bench_tables import plot_ramc, plot_validation, \
    read_ramc, read_validation  # noqa: F401 (the fuzzer reads them here)
from orrery_plot.common import csv_error, discard, finite, \
    import_matplotlib, publish, save, spans_decade, table

# The build replaces the next line with SETTINGS, REPORT_COLUMNS, CATEGORIES
# and REPORT_SCHEMA, from formats/include/orrery/formats/*.def.
# @ORRERY_FORMATS@


def read_rows(path):
    reader = table(path)
    try:
        return check_rows(path, reader)
    except csv.Error as e:
        csv_error(path, reader, e)


def whole(text):
    """TEXT as a whole number of ASCII digits, or None (str.isdigit()
    accepts digits int() does not, such as a superscript two)."""
    text = text.strip()
    if text and all("0" <= c <= "9" for c in text):
        return int(text)
    return None


def check_rows(path, reader):
    missing = [c for c in ["point", "point_name", "np", "machine", "kind",
                           "name", "site", "seconds", "simulated_seconds"]
               if c not in (reader.fieldnames or [])]
    if missing:
        sys.exit("orrery-plot: error: %s has no column %s; write it with "
                 "orrery-sweep (or orrery-sweep collect DIR)"
                 % (path, ", ".join(missing)))
    rows = []
    width = len(reader.fieldnames)
    for r in reader:
        # A row cut short (a truncated file) or with extra fields (edited
        # by hand) would shift columns: refuse it rather than plot it.
        extra = r.get(None)
        short = [k for k in reader.fieldnames if r.get(k) is None]
        if extra or short:
            sys.exit("orrery-plot: error: %s:%d: %d fields where the header "
                     "has %d (a truncated or edited table); rewrite it "
                     "with orrery-sweep collect DIR"
                     % (path, reader.line_num,
                        width + len(extra or []) - len(short), width))
        for k in ("point", "np"):
            if whole(r[k]) is None:
                sys.exit("orrery-plot: error: %s:%d: %s is '%s', not a "
                         "whole number; rewrite the table with "
                         "orrery-sweep collect DIR"
                         % (path, reader.line_num, k, r[k]))
        for k in ("simulated_seconds", "seconds"):
            if finite(r[k] or "0") is None:
                sys.exit("orrery-plot: error: %s:%d: %s is '%s', not a "
                         "finite number; rewrite the table with "
                         "orrery-sweep collect DIR"
                         % (path, reader.line_num, k, r[k]))
        rows.append(r)
    return rows, reader.fieldnames


def points_of(rows, fields):
    """One dict per point: its settings, simulated time and categories."""
    points = {}
    for r in rows:
        p = points.setdefault(whole(r["point"]), {
            "name": r["point_name"], "np": whole(r["np"]),
            "machine": r["machine"],
            "sim": finite(r["simulated_seconds"] or "0"),
            "values": {k: r[k] for k in fields
                       if k not in REPORT_COLUMNS and
                       k not in ("point", "point_name")},
            "categories": {}, "kernels": {}})
        if r["kind"] == "category":
            p["categories"][r["name"]] = finite(r["seconds"] or "0")
        elif r["kind"] == "kernel":
            site = os.path.basename(r["site"])
            key = "%s (%s)" % (r["name"], site) if site else r["name"]
            p["kernels"][key] = finite(r["seconds"] or "0")
    return [points[k] for k in sorted(points)]


def series_label(p, varied):
    parts = [os.path.basename(p["machine"]) or "machine"]
    for k in varied:
        if k not in ("np", "machine"):
            parts.append("%s=%s" % (k, p["values"].get(k, "")))
    return " ".join(parts)


def gpu_ticks(ax, gpus):
    """At most a dozen labelled ticks, the smallest and largest included."""
    ticks = sorted(set(gpus))
    if len(ticks) > 12:
        step = (len(ticks) - 1) / 11.0
        ticks = sorted({ticks[int(round(i * step))] for i in range(12)})
    ax.set_xticks(ticks)
    ax.set_xticklabels([str(g) for g in ticks])


def plot_scaling(plt, points, varied, outdir, formats, written):
    series = {}
    for p in points:
        series.setdefault(series_label(p, varied), []).append(p)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    gpus = [p["np"] for p in points]
    all_eff = []
    for label, ps in series.items():
        ps = sorted(ps, key=lambda p: p["np"])
        x = [p["np"] for p in ps]
        t = [p["sim"] for p in ps]
        speedup = [t[0] / v if v > 0 else 0 for v in t]
        eff = [s / (n / x[0]) for s, n in zip(speedup, x)]
        all_eff += eff
        for ax, y, what in zip(axes, [t, speedup, eff],
                               ["time", "speedup", "efficiency"]):
            (line,) = ax.plot(x, y, marker="o", label=label)
            line.set_gid("series:%s:%s" % (what, label))
    axes[0].set_ylabel("simulated time (s)")
    axes[1].set_ylabel("speedup over the fewest GPUs (x)")
    axes[2].set_ylabel("parallel efficiency (%)")
    # A linear axis from 0: 99.6-100 % reads as flat, not as a collapse.
    axes[2].set_ylim(0, 1.05 * max([1.0] + all_eff))
    axes[2].yaxis.set_major_formatter(
        plt.FuncFormatter(lambda v, _: "%.0f" % (100 * v)))
    axes[0].set_title("Simulated time")
    axes[1].set_title("Speedup")
    axes[2].set_title("Parallel efficiency")
    if len(set(gpus)) > 1:
        # Through every GPU count: on a log axis a two-point segment would
        # bend away from points that are on it.
        xs = sorted(set(gpus))
        axes[1].plot(xs, [g / xs[0] for g in xs], "k:", label="ideal")
    for ax in axes:
        ax.set_xlabel("GPUs (MPI ranks)")
        if spans_decade(gpus) or (gpus and max(gpus) / max(1, min(gpus)) >= 8):
            ax.set_xscale("log", base=2)
        gpu_ticks(ax, gpus)
        ax.grid(True, alpha=0.3)
    handles, labels = axes[1].get_legend_handles_labels()
    fig.legend(handles, labels, title="machine file", loc="upper center",
               bbox_to_anchor=(0.5, 0.0), ncol=min(4, len(labels)),
               fontsize="small")
    if spans_decade([p["sim"] for p in points]):
        axes[0].set_yscale("log")
    save(fig, outdir, "scaling", formats, written)
    plt.close(fig)


def plot_breakdown(plt, points, outdir, formats, written):
    cats = []
    for p in points:
        for c in p["categories"]:
            if c not in cats:
                cats.append(c)
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(points) + 3), 5))
    names = [p["name"] for p in points]
    bottom = [0.0] * len(points)
    for c in cats:
        vals = [p["categories"].get(c, 0.0) for p in points]
        bars = ax.bar(range(len(points)), vals, bottom=bottom,
                      label=c.replace("_", " "))
        for i, patch in enumerate(bars.patches):
            patch.set_gid("breakdown:%s:%s" % (c, names[i]))
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_xticks(range(len(points)))
    ax.set_xticklabels(names, rotation=45, ha="right")
    ax.set_xlabel("point")
    ax.set_ylabel("time per rank (s)")
    ax.set_title("Where the time goes (mean over ranks)")
    ax.legend(title="category", fontsize="small", bbox_to_anchor=(1.01, 1),
              loc="upper left")
    save(fig, outdir, "breakdown", formats, written)
    plt.close(fig)


def plot_kernels(plt, points, top, outdir, formats, written):
    total = {}
    for p in points:
        for k, s in p["kernels"].items():
            total[k] = total.get(k, 0.0) + s
    ranked = sorted(total.items(), key=lambda kv: -kv[1])[:top]
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(ranked) + 1.5))
    names = [k for k, _ in reversed(ranked)]
    vals = [v for _, v in reversed(ranked)]
    bars = ax.barh(range(len(ranked)), vals, color="tab:blue")
    for patch, name in zip(bars.patches, names):
        patch.set_gid("kernel:%s" % name)
    ax.set_yticks(range(len(ranked)))
    ax.set_yticklabels(names)
    ax.set_xlabel("predicted device time, all launches and points (s)")
    ax.set_title("Top %d kernels by predicted time" % len(ranked))
    if spans_decade(vals):
        ax.set_xscale("log")
    save(fig, outdir, "kernels", formats, written)
    plt.close(fig)


def read_measured(paths):
    """{ranks: seconds} from measured reports (ORRERY_REPORT of a native
    run, one per rank or rank 0's): a run takes as long as its slowest
    rank."""
    runs = {}
    for path in paths:
        try:
            with open(path) as f:
                rep = json.load(f)
            if not isinstance(rep, dict) or rep.get("kind") != "measured":
                raise ValueError("'kind' is not \"measured\"")
            seconds = float(rep["measured_seconds"])
            ranks = int(rep["world_size"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            sys.exit("orrery-plot: error: --measured %s: not a measured report "
                     "(%s); write one with ORRERY_REPORT=FILE on a native run "
                     "(docs/compare.md)" % (path, e))
        if ranks < 1 or seconds < 0:
            sys.exit("orrery-plot: error: --measured %s: world_size %d, "
                     "measured_seconds %g: expected a positive rank count and "
                     "a time >= 0" % (path, ranks, seconds))
        runs[ranks] = max(runs.get(ranks, 0.0), seconds)
    return runs


def plot_fidelity(plt, points, varied, measured, outdir, formats, written):
    """Simulated against measured time, matched by rank count."""
    series = {}
    for p in points:
        series.setdefault(series_label(p, varied), []).append(p)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    lines = []
    for label, ps in series.items():
        ps = sorted(ps, key=lambda p: p["np"])
        (line,) = axes[0].plot([p["np"] for p in ps], [p["sim"] for p in ps],
                               marker="o", label="simulated, " + label)
        line.set_gid("series:simulated:%s" % label)
        both = [p for p in ps if p["np"] in measured and measured[p["np"]] > 0]
        errors = [(p["sim"] - measured[p["np"]]) / measured[p["np"]]
                  for p in both]
        (eline,) = axes[1].plot([p["np"] for p in both],
                                [100 * e for e in errors], marker="o",
                                label=label)
        eline.set_gid("series:error:%s" % label)
        for p, e in zip(both, errors):
            lines.append("fidelity: %s, %d ranks: simulated %.6g s, measured "
                         "%.6g s, error %+.1f%%"
                         % (label, p["np"], p["sim"], measured[p["np"]],
                            100 * e))
    ranks = sorted(measured)
    (mline,) = axes[0].plot(ranks, [measured[n] for n in ranks], "k--",
                            marker="s", label="measured")
    mline.set_gid("series:measured")
    axes[1].axhline(0, color="k", linewidth=0.8)
    axes[0].set_ylabel("time (s)")
    axes[0].set_title("Simulated and measured time")
    axes[1].set_ylabel("error, (simulated - measured) / measured (%)")
    axes[1].set_title("Relative error of the prediction")
    for ax in axes:
        ax.set_xlabel("MPI ranks")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
    if spans_decade([p["sim"] for p in points] + list(measured.values())):
        axes[0].set_yscale("log")
    save(fig, outdir, "fidelity", formats, written)
    plt.close(fig)
    unmatched = [n for n in ranks if n not in {p["np"] for p in points}]
    if unmatched:
        lines.append("fidelity: no point of the sweep ran %s ranks; those "
                     "measurements are drawn but not compared"
                     % ", ".join(str(n) for n in unmatched))
    return lines


def plot_report(plt, report_path, out, top):
    """One run: time per rank by category, and its top kernels."""
    try:
        with open(report_path) as f:
            rep = json.load(f)
        breakdown = rep["breakdown"]
        ranks = max(1, int(rep.get("ranks", 1)))
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit("orrery-plot: error: %s is not an %s report (%s); keep "
                 "one with orrery-run --report FILE"
                 % (report_path, REPORT_SCHEMA, e))
    cats = sorted(breakdown, key=lambda c: -breakdown[c])
    kernels = sorted(rep.get("kernels", []),
                     key=lambda k: -k.get("seconds", 0))[:top]
    fig, axes = plt.subplots(1, 2, figsize=(14, max(3.5, 0.35 * len(cats) + 1.5)),
                             gridspec_kw={"wspace": 0.75})
    bars = axes[0].barh(range(len(cats)),
                        [breakdown[c] / ranks for c in reversed(cats)],
                        color="tab:blue")
    for patch, c in zip(bars.patches, reversed(cats)):
        patch.set_gid("category:%s" % c)
    axes[0].set_yticks(range(len(cats)))
    axes[0].set_yticklabels([c.replace("_", " ") for c in reversed(cats)])
    axes[0].set_xlabel("time per rank (s)")
    machine = rep.get("machine", {})
    axes[0].set_title("%s, %d ranks: %.4g s simulated"
                      % (os.path.basename(machine.get("file", "")) or
                         machine.get("name", "?"), ranks,
                         rep.get("simulated_seconds", 0)))
    names = ["%s (%s)" % (k.get("name", "?"),
                          os.path.basename(k.get("site", "")))
             for k in reversed(kernels)]
    kb = axes[1].barh(range(len(kernels)),
                      [k.get("seconds", 0) for k in reversed(kernels)],
                      color="tab:orange")
    for patch, n in zip(kb.patches, names):
        patch.set_gid("kernel:%s" % n)
    axes[1].set_yticks(range(len(kernels)))
    axes[1].set_yticklabels(names)
    axes[1].set_xlabel("predicted device time, all launches (s)")
    axes[1].set_title("Top %d kernels" % len(kernels))
    fmt = os.path.splitext(out)[1].lstrip(".")
    if fmt not in ("svg", "png", "pdf"):
        sys.exit("orrery-plot: error: %s: name a .svg, .png or .pdf file" % out)
    publish(save(fig, out, None, [fmt], []))
    plt.close(fig)
    print("orrery-plot: wrote %s" % out)
    return 0


def main(argv):
    ap = argparse.ArgumentParser(
        prog="orrery-plot",
        description="Plot an orrery-sweep output directory (docs/sweeps.md).")
    ap.add_argument("dir", nargs="?",
                    help="the -o DIR of orrery-sweep (has results.csv)")
    ap.add_argument("--report", help="plot one run's report instead (with -o "
                    "FILE.svg or FILE.png)")
    ap.add_argument("--validation", metavar="POINTS.csv",
                    help="plot bench/validate.sh's points, one file per "
                    "series (with -o DIR)")
    ap.add_argument("--ramc", metavar="ROUNDS.csv",
                    help="plot bench/ramc.sh's rounds (RAMC_BENCH_CSV): "
                    "bandwidth and latency of RAMC, MPI RMA and raw "
                    "fi_write, one file per table (with -o DIR)")
    ap.add_argument("-o", dest="outdir", help="where the plots go "
                    "(default: DIR/plots)")
    ap.add_argument("--format", default="svg,png",
                    help="comma-separated: svg, png, pdf (default svg,png)")
    ap.add_argument("--top", type=int, default=10,
                    help="kernels in the kernel plot (default 10)")
    ap.add_argument("--measured", nargs="+", default=[], metavar="M.json",
                    help="measured reports (ORRERY_REPORT of native runs): "
                    "adds fidelity.*, simulated vs measured by rank count")
    args = ap.parse_args(argv)
    if args.report and args.measured:
        sys.exit("orrery-plot: error: --measured goes with a sweep directory "
                 "(orrery-plot DIR --measured M.json); for one run, use "
                 "orrery-compare M.json REPORT.json")
    formats = [f for f in args.format.split(",") if f]
    for f in formats:
        if f not in ("svg", "png", "pdf"):
            sys.exit("orrery-plot: error: --format %s: use svg, png or pdf" % f)
    if args.validation:
        if not args.outdir:
            sys.exit("orrery-plot: error: --validation needs -o DIR")
        return plot_validation(import_matplotlib(), args.validation,
                               args.outdir, formats)
    if args.ramc:
        if not args.outdir:
            sys.exit("orrery-plot: error: --ramc needs -o DIR")
        return plot_ramc(import_matplotlib(), args.ramc, args.outdir, formats)
    if args.report:
        if not args.outdir:
            sys.exit("orrery-plot: error: --report needs -o FILE.svg (or .png)")
        return plot_report(import_matplotlib(), args.report, args.outdir,
                           args.top)
    if not args.dir:
        sys.exit("orrery-plot: error: give a sweep directory (orrery-plot DIR) "
                 "or --report FILE -o FILE.svg")
    csv_path = os.path.join(args.dir, "results.csv")
    if not os.path.isfile(csv_path):
        sys.exit("orrery-plot: error: %s does not exist; run orrery-sweep "
                 "STUDY.yaml -o %s (or orrery-sweep collect %s) first"
                 % (csv_path, args.dir, args.dir))
    measured = read_measured(args.measured)
    rows, fields = read_rows(csv_path)
    points = points_of(rows, fields)
    if not points:
        sys.exit("orrery-plot: error: %s has no rows: no point is done yet "
                 "(orrery-sweep status %s)" % (csv_path, args.dir))
    # The names the study varies (sweep.json); without one, the columns
    # that take several values (ranks_per_node follows np when not set).
    candidates = [k for k in fields if k not in REPORT_COLUMNS and
                  k not in ("point", "point_name", "ranks_per_node")]
    sweep_json, sweep = os.path.join(args.dir, "sweep.json"), {}
    if os.path.isfile(sweep_json):
        with open(sweep_json) as f:
            sweep = json.load(f)
        candidates = sweep.get("varied", [])
    varied = [k for k in candidates
              if len({p["values"].get(k) for p in points}) > 1]
    plt = import_matplotlib()
    outdir = args.outdir or os.path.join(args.dir, "plots")
    os.makedirs(outdir, exist_ok=True)
    listed = len(sweep.get("points", []))
    if listed > len(points):
        print("orrery-plot: note: %s has %d of the %d points of %s (the "
              "others failed or are not done: orrery-sweep status %s)"
              % (csv_path, len(points), listed, sweep_json, args.dir),
              file=sys.stderr)
    written, lines = [], []
    try:
        plot_scaling(plt, points, varied, outdir, formats, written)
        plot_breakdown(plt, points, outdir, formats, written)
        plot_kernels(plt, points, args.top, outdir, formats, written)
        if measured:
            lines = plot_fidelity(plt, points, varied, measured, outdir,
                                  formats, written)
    except Exception as e:  # a plot that cannot be drawn: none is written
        discard(written)
        sys.exit("orrery-plot: error: cannot draw the plots of %s (%s: %s); "
                 "nothing was written" % (csv_path, type(e).__name__, e))
    publish(written)
    for line in lines:
        print(line)
    print("orrery-plot: %d points; wrote %s" % (len(points), ", ".join(written)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
