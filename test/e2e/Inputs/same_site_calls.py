"""Checks that a predicted report (orrery-run --report) lists the same call
sites as the measured reports of a native run of the same program (one per
rank, ORRERY_REPORT=m-%r.json), with the same number of calls, and that each
predicted site has a time. Usage: same_site_calls.py PREDICTED MEASURED...
Prints one line per site; exits 1 naming the first site that differs."""
import collections
import json
import sys


def calls(reports):
    c = collections.Counter()
    for r in reports:
        for s in r.get("sites", []):
            c[(s["api"], s["site"])] += s["calls"]
    return c


predicted = json.load(open(sys.argv[1]))
measured = [json.load(open(p)) for p in sys.argv[2:]]
p, m = calls([predicted]), calls(measured)
if not m:
    sys.exit("measured reports list no sites")
for key in sorted(set(p) | set(m)):
    if p[key] != m[key]:
        sys.exit("%s %s: %d calls predicted, %d measured"
                 % (key[0], key[1], p[key], m[key]))
for s in predicted["sites"]:
    if not isinstance(s["seconds"], (int, float)) or s["seconds"] < 0:
        sys.exit("%s %s: no predicted time" % (s["api"], s["site"]))
    print("site %s %s calls %d" % (s["api"], s["site"], s["calls"]))
