#!/usr/bin/env python3
"""A mutation fuzzer for orrery-plot's CSV readers (docs/fuzzing.md).

orrery-plot is Python, out of libFuzzer's reach; this does what libFuzzer's
mutators do, without coverage feedback, for the three tables it reads: a
sweep's results.csv (read_rows, points_of), bench/validate.sh's points
(read_validation) and bench/ramc.sh's rounds (read_ramc). Every input must
give data or orrery-plot's own error (SystemExit "orrery-plot: error:
..."): any other exception is a failure, its input saved as
ARTIFACTS/crash-<sha1> and the traceback printed.

  csv_reader_fuzzer.py [--plot BUILD/bin/orrery-plot] [--runs N] [--seed S]
                       [--artifacts DIR] SEED.csv...

The run is reproducible from --seed; an input given alone with --runs 0 is
replayed once (how a saved crash is checked after a fix).
"""
import argparse
import hashlib
import importlib.machinery
import importlib.util
import io
import os
import random
import shutil
import sys
import tempfile
import traceback

# Tokens that tripped CSV readers before: quoting, separators, numbers
# Python parses but int() or float() do not, digits that are not ASCII,
# bytes that are not UTF-8, a field longer than the csv module's limit.
TOKENS = [b",", b'"', b'""', b"\n", b"\r\n", b"\r", b"\x00", b"\xff", b"\xc3",
          b"nan", b"inf", b"-inf", b"1e999", b"-1", b"0x10", b"1_000", b" 7",
          b"\xc2\xb2", b"\xd9\xa3", b"\xef\xbb\xbf", b"category", b"kernel",
          b"", b"a" * 200000]


def load_plot(path):
    loader = importlib.machinery.SourceFileLoader("orrery_plot", path)
    spec = importlib.util.spec_from_loader("orrery_plot", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def mutate(rng, data, seeds):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(8)
        at = rng.randint(0, len(data))
        if op == 0 and data:  # flip a byte
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif op == 1:  # insert a token
            data[at:at] = rng.choice(TOKENS)
        elif op == 2 and data:  # delete a range
            del data[at:at + rng.randint(1, 16)]
        elif op == 3 and data:  # duplicate a range
            end = min(len(data), at + rng.randint(1, 64))
            data[at:at] = data[at:end]
        elif op == 4:  # truncate
            del data[at:]
        elif op == 5:  # swap two lines
            lines = bytes(data).split(b"\n")
            if len(lines) > 1:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
                data = bytearray(b"\n".join(lines))
        elif op == 6:  # replace one field with a token
            fields = bytes(data).split(b",")
            fields[rng.randrange(len(fields))] = rng.choice(TOKENS)
            data = bytearray(b",".join(fields))
        else:  # cross over with another seed
            other = rng.choice(seeds)
            cut = rng.randint(0, len(other))
            data = data[:at] + bytearray(other[cut:])
    return bytes(data)


def check(plot, path):
    """None if the readers answered with data or their own error, else the
    traceback."""
    for read in (lambda: plot.points_of(*plot.read_rows(path)),
                 lambda: plot.read_validation(path),
                 lambda: plot.read_ramc(path)):
        try:
            read()
        except SystemExit as e:
            if not str(e.code).startswith("orrery-plot: error: "):
                return "SystemExit without orrery-plot's error: %r" % e.code
        except Exception:  # pylint: disable=broad-except
            return traceback.format_exc()
    return None


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # The built orrery-plot (its source is a template the build fills in
    # with the format lists), found on PATH as the tests put it there.
    ap.add_argument("--plot", default=shutil.which("orrery-plot"))
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--artifacts", default=".")
    ap.add_argument("seeds", nargs="+")
    args = ap.parse_args(argv)
    if not args.plot:
        ap.error("no orrery-plot on PATH; give --plot BUILD/bin/orrery-plot")
    plot = load_plot(args.plot)
    seeds = []
    for s in args.seeds:
        with open(s, "rb") as f:
            seeds.append(f.read())
    rng = random.Random(args.seed)
    inputs = list(seeds) + [mutate(rng, rng.choice(seeds), seeds)
                            for _ in range(args.runs)]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "input.csv")
        for n, data in enumerate(inputs):
            with open(path, "wb") as f:
                f.write(data)
            failure = check(plot, path)
            if failure:
                os.makedirs(args.artifacts, exist_ok=True)
                out = os.path.join(args.artifacts, "crash-" +
                                   hashlib.sha1(data).hexdigest())
                with open(out, "wb") as f:
                    f.write(data)
                sys.stderr.write("csv_reader_fuzzer: input %d fails; saved as "
                                 "%s\n%s" % (n, out, failure))
                return 1
    print("csv_reader_fuzzer: Done %d runs (seed %d)" % (len(inputs),
                                                         args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
