"""Compares two simulation results with their wall-clock figures left out.

Usage: same_results.py NEW OLD KIND, KIND one of
  report  orrery-run JSON reports, field by field (keys naming "wall" and
          "rank_clock", counts of how the simulation ran, skipped; fields
          only NEW has are named and left out)
  trace   timelines, their events compared as sets (file order may differ)
  stdout  program output, lines naming wall time or file paths skipped
Numbers are equal when within a relative 1e-12 of each other (REL in the
environment changes it; REL=0: bit for bit): a change of mechanism may sum
the same times in another order, which moves the last digits of a double.
Exit 0 and print "same simulated results" when equal; else exit 1 and name
the first fields or lines that differ. Used by bench/same-results.sh and
test/e2e/sim-simgrid-fixes.test.
"""
import json, os, re, sys

REL = float(os.environ.get("REL", "1e-12"))
NUMBER = re.compile(r"-?\d+\.\d*(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+")

def close(x, y):
    if isinstance(x, bool) or isinstance(y, bool):
        return x == y
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        return x == y or abs(x - y) <= REL * max(abs(x), abs(y))
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(close(x[k], y[k]) for k in x)
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(close(p, q) for p, q in zip(x, y))
    if isinstance(x, str) and isinstance(y, str) and x != y:
        # Lines of program output: the same words, numbers within REL.
        nx, ny = NUMBER.findall(x), NUMBER.findall(y)
        return (NUMBER.sub("#", x) == NUMBER.sub("#", y) and
                close([float(v) for v in nx], [float(v) for v in ny]))
    return x == y

def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items()
                if "wall" not in k and k != "rank_clock"}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x

def events(path):
    # Sorted on their fields with numbers to 9 digits, so that events whose
    # times differ in the last digits of a double pair up.
    d = json.load(open(path))
    ev = d["traceEvents"] if isinstance(d, dict) else d
    key = lambda e: json.dumps(
        {k: float("%.9g" % v) if isinstance(v, float) else v
         for k, v in e.items()}, sort_keys=True)
    return sorted(ev, key=key)

def lines(path):
    skip = ("wall", "Report:", "Timeline:", "simulated/wall")
    return [l for l in open(path) if not any(s in l for s in skip)]

new, old, kind = sys.argv[1:4]
if kind == "report":
    a, b = strip(json.load(open(new))), strip(json.load(open(old)))
    # A field the other library does not write yet (new in this one) is
    # not a different result; a field this one dropped is.
    added = sorted(set(a) - set(b))
    for k in added:
        del a[k]
    if added:
        print("  (new fields, not compared: %s)" % ", ".join(added))
elif kind == "trace":
    a, b = events(new), events(old)
else:
    a, b = lines(new), lines(old)
if not close(a, b):
    if isinstance(a, dict):
        diff = [k for k in sorted(set(a) | set(b))
                if not close(a.get(k), b.get(k))]
        print("  %s differs in %s" % (kind, ", ".join(diff[:5])))
    else:
        only = sorted(set(map(str, a)) ^ set(map(str, b)))
        print("  %s differs: %s" % (kind, only[0][:200] if only else "order"))
    sys.exit(1)
print("same simulated results")
