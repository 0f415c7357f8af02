#!/usr/bin/env python3
"""Predictions against published GPU measurements (docs/validation.md).

  validate.py --bin DIR --orrery-run PATH [--src DIR] [--out DIR]
              [--page FILE] [--measured-column DIR]

Every bench/validation/data/*.csv is one published source for one GPU: a
header of '# key: value' lines (title, source, gpu, conditions, program,
args, machine, x, unit, checks, numbers from elsewhere, an optional
note on what the comparison shows, an optional 'ranks' (MPI ranks, default
1), an optional 'env' (NAME=VALUE ... set for the run), and 'fitted' where
a model number was read off the data: such a series is shown, never
counted) and rows
kernel,x,measured. Each kernel of a file is one series. The program named
there (built into --bin) runs under orrery-run on the machine file named
there; it prints kernel,x,value lines, which are matched to the rows by
kernel and x. Prints each series' median absolute error and worst point,
writes all points to OUT/validation.csv and, with --page, the page.
With --measured-column DIR (bench/gpu-check.sh on a GPU), DIR/<program>
<args>.csv holds the same programs' native output, shown next to the
published figures.
"""
import argparse
import concurrent.futures
import csv
import os
import statistics
import subprocess
import sys


def read_source(path):
    meta, rows = {}, []
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    body = []
    for line in lines:
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            meta[key.strip()] = value.strip()
        elif line.strip():
            body.append(line)
    for row in csv.DictReader(body):
        rows.append((row["kernel"], float(row["x"]), float(row["measured"])))
    for key in ("title", "source", "gpu", "program", "machine", "x", "unit",
                "checks", "numbers from elsewhere"):
        if key not in meta:
            sys.exit(f"validate.py: {path}: the header lacks '# {key}:'")
    return meta, rows


def parse_output(text, where):
    out = {}
    for line in text.splitlines():
        parts = line.strip().split(",")
        if len(parts) != 3:
            continue
        try:
            out[(parts[0], float(parts[1]))] = float(parts[2])
        except ValueError:
            continue
    if not out:
        sys.exit(f"validate.py: {where} printed no kernel,x,value lines")
    return out


def run_key(meta):
    """What one simulation runs: program, arguments, machine, ranks."""
    return (meta["program"], meta.get("args", ""), meta["machine"],
            meta.get("ranks", "1"), meta.get("env", ""))


def simulate(key, index, opts):
    """One program's simulated output (kernel, x) -> value."""
    program, args, machine, ranks, env = key
    cmd = [opts.orrery_run, "-np", ranks, "--machine",
           os.path.join(opts.src, machine), "--report",
           os.path.join(opts.out, f"report-{index}.json"),
           os.path.join(opts.bin, program)] + args.split()
    run_env = dict(os.environ)
    for setting in env.split():
        name, _, value = setting.partition("=")
        run_env[name] = value
    proc = subprocess.run(cmd, capture_output=True, text=True, env=run_env)
    if proc.returncode != 0:
        sys.exit("validate.py: " + " ".join(cmd) + " failed:\n" +
                 proc.stderr[-2000:])
    return parse_output(proc.stdout, " ".join(cmd))


def simulate_all(keys, opts):
    """Every distinct run, two at a time (each is one simulation process)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {key: pool.submit(simulate, key, i, opts)
                   for i, key in enumerate(keys)}
        return {key: f.result() for key, f in futures.items()}


def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))


def lookup(points, kernel, x):
    for (k, px), v in points.items():
        if k == kernel and close(px, x):
            return v
    return None


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--orrery-run", required=True)
    ap.add_argument("--src", default=os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    ap.add_argument("--out", default=".")
    ap.add_argument("--page")
    ap.add_argument("--plots", help="relative to the page: where plots go")
    ap.add_argument("--measured-column")
    opts = ap.parse_args(argv)
    data_dir = os.path.join(opts.src, "bench", "validation", "data")
    os.makedirs(opts.out, exist_ok=True)
    series, points = [], []
    sources = [(name, *read_source(os.path.join(data_dir, name)))
               for name in sorted(os.listdir(data_dir))
               if name.endswith(".csv")]
    keys = []
    for _, meta, _ in sources:
        if run_key(meta) not in keys:
            keys.append(run_key(meta))
    outputs = simulate_all(keys, opts)
    for name, meta, rows in sources:
        pred = outputs[run_key(meta)]
        native = None
        if opts.measured_column:
            path = os.path.join(opts.measured_column,
                                (meta["program"] + " " + meta.get("args", "")
                                 ).strip().replace(" ", "_") + ".csv")
            if os.path.exists(path):
                with open(path) as f:
                    native = parse_output(f.read(), path)
        kernels = []
        for k, _, _ in rows:
            if k not in kernels:
                kernels.append(k)
        for k in kernels:
            errs = []
            for kk, x, measured in rows:
                if kk != k:
                    continue
                p = lookup(pred, k, x)
                if p is None:
                    continue
                err = (p - measured) / measured
                errs.append((abs(err), err, x, measured, p))
                n = lookup(native, k, x) if native else None
                points.append({"series": f"{name[:-4]}:{k}", "x": x,
                               "measured": measured, "predicted": p,
                               "native": "" if n is None else n})
            if not errs:
                sys.exit(f"validate.py: {name}: no prediction matches a "
                         f"published point of '{k}'")
            worst = max(errs)
            series.append({"file": name, "kernel": k, "meta": meta,
                           "points": len(errs),
                           "median": statistics.median(e[0] for e in errs),
                           "worst": worst})
    os.makedirs(opts.out, exist_ok=True)
    with open(os.path.join(opts.out, "validation.csv"), "w",
              newline="") as f:
        w = csv.DictWriter(f, ["series", "x", "measured", "predicted",
                               "native"])
        w.writeheader()
        w.writerows(points)
    print(f"{'series':58} {'points':>6} {'median |err|':>12} {'worst':>8}")
    for s in series:
        print(f"{s['file'][:-4] + ':' + s['kernel']:58} {s['points']:6d} "
              f"{100 * s['median']:11.1f}% {100 * s['worst'][1]:+7.0f}%"
              + ("  (fitted)" if fitted(s) else ""))
    print(summary(series))
    if opts.page:
        write_page(opts.page, series, opts.plots)
    return 0


def within(s):
    """The bar: a median under 15 % and no point off by 2x."""
    return s["median"] <= 0.15 and s["worst"][0] < 1.0


def fitted(s):
    """A series a model number was read off: shown, never counted."""
    return bool(s["meta"].get("fitted"))


def summary(series):
    checked = [s for s in series if not fitted(s)]
    good = sum(1 for s in checked if within(s))
    text = (f"{good} of {len(checked)} series within a 15 % median error "
            "and no point off by 2x or more.")
    n = len(series) - len(checked)
    if n:
        text += (f" {n} more {'series were' if n > 1 else 'series was'} "
                 "fitted (a model number read off them): shown, not counted.")
    return text


def write_page(path, series, plots):
    sources = {}
    for s in series:
        sources.setdefault(s["file"], s["meta"])
    out = []
    out.append("# Predictions against published GPU measurements\n")
    out.append("Generated by `bench/validate.sh`: do not edit by hand. Each "
               "series is a published measurement of one kernel on one GPU, "
               "reproduced by a program in `bench/validation/programs` "
               "(written here, after the method of the published benchmark) "
               "and simulated in skeleton mode on the machine file of the "
               "GPU measured. Error = (predicted - measured) / measured.\n")
    out.append(summary(series) + "\n")
    out.append("| series | GPU | points | median abs. error | worst point |")
    out.append("|---|---|---:|---:|---|")
    for s in series:
        x, m, p = s["worst"][2], s["worst"][3], s["worst"][4]
        tag = " (fitted)" if fitted(s) else ""
        out.append(f"| {s['file'][:-4]}: {s['kernel']}{tag} | "
                   f"{s['meta']['gpu']} "
                   f"| {s['points']} | {100 * s['median']:.1f} % | "
                   f"{100 * s['worst'][1]:+.0f} % at {s['meta']['x']} = "
                   f"{x:g} ({m:g} measured, {p:.4g} predicted "
                   f"{s['meta']['unit']}) |")
    out.append("")
    out.append("## Sources, and what each series checks\n")
    out.append("A number set from a dataset is never checked against that "
               "dataset: each source says which machine-file numbers it "
               "checks and where those came from.\n")
    for name, meta in sources.items():
        out.append(f"### {meta['title']}\n")
        out.append(f"- Data: `bench/validation/data/{name}`")
        for key in ("source", "gpu", "conditions", "machine", "ranks", "env",
                    "fitted",
                    "checks", "numbers from elsewhere", "note"):
            if meta.get(key):
                label = key[0].upper() + key[1:]
                out.append(f"- {label}: {meta[key]}")
        cmd = (meta["program"] + " " + meta.get("args", "")).strip()
        out.append(f"- Program: `bench/validation/programs/"
                   f"{meta['program']}.cu`, run as `{cmd}`")
        if plots:
            out.append("")
            out.append(f"![{meta['title']}]({plots}/{name[:-4]}.svg)")
        out.append("")
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(out))
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
