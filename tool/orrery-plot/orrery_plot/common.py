"""What every orrery-plot mode shares: matplotlib from Debian's python3,
CSV tables read with orrery-plot's own errors, and plot files written whole
or not at all."""
import csv
import io
import math
import os
import sys

DEBIAN_PYTHON = "/usr/bin/python3"


def import_matplotlib():
    try:
        import matplotlib
    except ImportError:
        # A python3 first on PATH (pyenv, a venv) may not see Debian's
        # python3-matplotlib: use the system interpreter that does.
        if os.path.realpath(sys.executable) != os.path.realpath(DEBIAN_PYTHON) \
                and os.path.exists(DEBIAN_PYTHON) \
                and not os.environ.get("ORRERY_PLOT_REEXEC"):
            os.environ["ORRERY_PLOT_REEXEC"] = "1"
            os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON] + sys.argv)
        sys.exit("orrery-plot: error: matplotlib is missing; install Debian's "
                 "python3-matplotlib (scripts/install-deps.sh does)")
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "orrery"  # stable SVG ids
    import matplotlib.pyplot as plt
    return plt


SWEEP_TABLE = "orrery-sweep collect DIR"


def table(path, how=SWEEP_TABLE):
    """A csv.DictReader over the text of PATH; orrery-plot's error for a file
    that cannot be read or is not UTF-8 text (rewrite it with HOW)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        sys.exit("orrery-plot: error: %s: %s" % (path, e.strerror))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        sys.exit("orrery-plot: error: %s:%d: byte 0x%02X is not UTF-8; the "
                 "table is not orrery's (rewrite it with %s)"
                 % (path, data.count(b"\n", 0, e.start) + 1, data[e.start],
                    how))
    return csv.DictReader(io.StringIO(text, newline=""))


def csv_error(path, reader, e, how=SWEEP_TABLE):
    sys.exit("orrery-plot: error: %s:%d: %s (a damaged table); rewrite it "
             "with %s" % (path, reader.line_num, e, how))


def read_table(path, take, collected, what, how, columns=()):
    """Calls take(reader, row) for each row of PATH's table, which must have
    COLUMNS, and returns COLLECTED, which take fills; orrery-plot's errors
    for a damaged table, one without a column and one that gave nothing
    (it "holds no WHAT") say to write it again with HOW."""
    reader = table(path, how)
    try:
        missing = [c for c in columns if c not in (reader.fieldnames or [])]
        if missing:
            sys.exit("orrery-plot: error: %s has no column %s; write it with "
                     "%s" % (path, ", ".join(missing), how))
        for row in reader:
            take(reader, row)
    except csv.Error as e:
        csv_error(path, reader, e, how)
    if not collected:
        sys.exit("orrery-plot: error: %s holds no %s; write it with %s"
                 % (path, what, how))
    return collected


def finite(text):
    """TEXT as a finite float, or None."""
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def spans_decade(values):
    values = [v for v in values if v > 0]
    return len(values) > 1 and max(values) / min(values) >= 10


def save(fig, outdir, stem, formats, written):
    """Writes each format as PATH.part; publish() renames them all once every
    plot is drawn, so a failure leaves no partial set or half-written file."""
    for fmt in formats:
        path = os.path.join(outdir, "%s.%s" % (stem, fmt)) if stem else outdir
        fig.savefig(path + ".part", format=fmt, bbox_inches="tight",
                    metadata={"Date": None} if fmt == "svg" else None)
        written.append(path)
    return written


def publish(written):
    for path in written:
        os.replace(path + ".part", path)


def discard(written):
    for part in [p + ".part" for p in written if os.path.exists(p + ".part")]:
        os.remove(part)
