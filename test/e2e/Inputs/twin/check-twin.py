"""Checks a twin run against a native run of examples/jacobi.

usage: check-twin.py NATIVE_OUT TWIN_OUT TWIN_REPORT [copies-measured]

Data are real in twin mode, so the norms printed every NORM_EVERY
iterations and the final residual match the native run's (up to the order
of atomicAdd's, hence a relative tolerance). The report says kernels were
measured and, unless copies-measured is given, copies modelled.
"""
import json
import re
import sys


def numbers(path):
    norms, residual = [], None
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*(\d+), ([0-9.eE+-]+)$", line)
            if m:
                norms.append((int(m.group(1)), float(m.group(2))))
            m = re.search(r"residual ([0-9.eE+-]+)", line)
            if m:
                residual = float(m.group(1))
    return norms, residual


def close(a, b):
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-300)


native_norms, native_res = numbers(sys.argv[1])
twin_norms, twin_res = numbers(sys.argv[2])
report = json.load(open(sys.argv[3]))
copies_measured = len(sys.argv) > 4 and sys.argv[4] == "copies-measured"
errors = []
if not native_norms or native_res is None:
    errors.append("native run printed no norms or residual")
if [i for i, _ in native_norms] != [i for i, _ in twin_norms]:
    errors.append("norm lines differ: %s vs %s" % (native_norms, twin_norms))
for (i, a), (_, b) in zip(native_norms, twin_norms):
    if not close(a, b):
        errors.append("norm at iteration %d: native %g, twin %g" % (i, a, b))
if native_res is None or twin_res is None or not close(native_res, twin_res):
    errors.append("residual: native %s, twin %s" % (native_res, twin_res))
if native_res == 0:
    errors.append("native residual is 0: the run checks nothing")
if report.get("kernel_time") != "measured":
    errors.append("kernel_time is %r" % report.get("kernel_time"))
for k in report["kernels"]:
    if k["time"] != "measured" or not k["measured_seconds"] > 0:
        errors.append("kernel %s: time %s, measured %s s" %
                      (k["name"], k["time"], k["measured_seconds"]))
bm = report["breakdown_measured"]
if not bm["kernel_compute"] + bm["kernel_memory"] > 0:
    errors.append("no measured kernel time in breakdown_measured")
if copies_measured != (bm["copies"] > 0):
    errors.append("measured copies: %s s (copies-measured: %s)" %
                  (bm["copies"], copies_measured))
for e in errors:
    print("error: " + e)
print("twin matches native" if not errors else "twin differs")
sys.exit(1 if errors else 0)
