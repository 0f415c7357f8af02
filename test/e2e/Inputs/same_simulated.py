"""Compares two orrery-run JSON reports field by field, wall-clock fields
(wall_seconds, the simulated/wall rate) left out: exit 0 and "same simulated
results" when equal, else exit 1 naming the first fields that differ."""
import json
import sys


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if "wall" not in k}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


a, b = (strip(json.load(open(p))) for p in sys.argv[1:3])
if a == b:
    print("same simulated results")
    sys.exit(0)
diff = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
print("different: " + ", ".join(diff[:5]))
sys.exit(1)
