"""Compares two simulation results with their wall-clock figures left out.

Usage: same_results.py NEW OLD KIND, KIND one of
  report  orrery-run JSON reports, field by field (keys naming "wall" skipped)
  trace   timelines, their events compared as sets (file order may differ)
  stdout  program output, lines naming wall time or file paths skipped
Exit 0 and print "same simulated results" when equal; else exit 1 and name
the first fields or lines that differ. Used by bench/same-results.sh and
test/e2e/sim-simgrid-fixes.test.
"""
import json, sys

def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if "wall" not in k}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x

def events(path):
    d = json.load(open(path))
    ev = d["traceEvents"] if isinstance(d, dict) else d
    return sorted(json.dumps(e, sort_keys=True) for e in ev)

def lines(path):
    skip = ("wall", "Report:", "Timeline:", "simulated/wall")
    return [l for l in open(path) if not any(s in l for s in skip)]

new, old, kind = sys.argv[1:4]
if kind == "report":
    a, b = strip(json.load(open(new))), strip(json.load(open(old)))
elif kind == "trace":
    a, b = events(new), events(old)
else:
    a, b = lines(new), lines(old)
if a != b:
    if isinstance(a, dict):
        diff = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
        print("  %s differs in %s" % (kind, ", ".join(diff[:5])))
    else:
        only = sorted(set(map(str, a)) ^ set(map(str, b)))
        print("  %s differs: %s" % (kind, only[0][:200] if only else "order"))
    sys.exit(1)
print("same simulated results")
