"""Checks a native run's report and timeline on a GPU (liborrery-native's
device spans): every launch was timed on the device, each kernel row's time
is the sum of its spans on the timeline's stream tracks, and the breakdown
has the device kernel time. Usage: check_device_spans.py REPORT TRACE.
Prints 'device spans ok: K kernel sites, N spans on S streams'; exits 1
naming the first thing that differs."""
import collections
import json
import sys

report = json.load(open(sys.argv[1]))
trace = json.load(open(sys.argv[2]))["traceEvents"]
kernels = report["kernels"]
if not kernels:
    sys.exit("no kernel rows")
streams = {e["tid"]: e["args"]["name"] for e in trace
           if e.get("name") == "thread_name"
           and e["args"]["name"].startswith("stream ")}
spans = collections.defaultdict(float)
count = 0
for e in trace:
    if e.get("ph") == "X" and e.get("cat") == "kernel":
        if e["tid"] not in streams:
            sys.exit("kernel span %s not on a stream track" % e["name"])
        if e["dur"] <= 0:
            sys.exit("kernel span %s has no duration" % e["name"])
        spans[e["name"]] += e["dur"] * 1e-6
        count += 1
by_name = collections.defaultdict(float)
for k in kernels:
    if k.get("device_launches") != k["launches"]:
        sys.exit("%s %s: %s of %d launches timed on the device"
                 % (k["name"], k["site"], k.get("device_launches"),
                    k["launches"]))
    by_name[k["name"]] += k["seconds"]
for name, seconds in by_name.items():
    if abs(spans[name] - seconds) > 1e-6 + 1e-6 * seconds:
        sys.exit("%s: %g s in the report, %g s of spans" % (name, seconds,
                                                            spans[name]))
if not report["breakdown"].get("kernel_device", 0) > 0:
    sys.exit("no kernel_device in the breakdown")
if any("not timed" in w for w in report["warnings"]):
    sys.exit("warnings: %s" % report["warnings"])
print("device spans ok: %d kernel sites, %d spans on %d streams"
      % (len(kernels), count, len(streams)))
