"""Checks what a twin run charged when its device executor used the
recording stand-in for libcudart (recording-cudart.cpp: every launch
measures 250 us, every copy 10 us, every set 5 us).

usage: check-recording.py REPORT modelled|measured   (ORRERY_TWIN_COPIES)
       check-recording.py REPORT skeleton
"""
import json
import sys

report = json.load(open(sys.argv[1]))
mode = sys.argv[2]
errors = []
bm, b = report["breakdown_measured"], report["breakdown"]


def close(a, c, rel=1e-9):
    return abs(a - c) <= rel * max(abs(a), abs(c), 1e-12)


kernel_total = sum(k["seconds"] for k in report["kernels"])
if mode == "skeleton":
    if report["kernel_time"] != "modelled":
        errors.append("kernel_time %r" % report["kernel_time"])
    if any(v != 0 for v in bm.values()):
        errors.append("measured time in a skeleton run: %s" % bm)
    for k in report["kernels"]:
        if k["time"] != "modelled" or k["measured_seconds"] != 0:
            errors.append("kernel %s: %s" % (k["name"], k["time"]))
else:
    if report["kernel_time"] != "measured":
        errors.append("kernel_time %r" % report["kernel_time"])
    for k in report["kernels"]:
        want = k["launches"] * 250e-6
        if not (close(k["seconds"], want) and close(k["measured_seconds"], want)
                and k["time"] == "measured"):
            errors.append("kernel %s: %d launches, %s s, measured %s s, %s" % (
                k["name"], k["launches"], k["seconds"], k["measured_seconds"],
                k["time"]))
    if not close(bm["kernel_compute"] + bm["kernel_memory"], kernel_total):
        errors.append("breakdown_measured kernels %s != kernels %s" % (
            bm["kernel_compute"] + bm["kernel_memory"], kernel_total))
    if not close(b["kernel_compute"] + b["kernel_memory"], kernel_total):
        errors.append("breakdown kernels %s != kernels %s" % (
            b["kernel_compute"] + b["kernel_memory"], kernel_total))
    if mode == "modelled" and bm["copies"] != 0:
        errors.append("copies measured (%s s) though modelled" % bm["copies"])
    if mode == "measured":
        # Every copy and set measured 10 or 5 us: the category is a sum of
        # those, and all of it measured.
        steps = round(b["copies"] / 5e-6)
        if not (b["copies"] > 0 and close(bm["copies"], b["copies"])
                and close(steps * 5e-6, b["copies"], 1e-6)):  # float ms
            errors.append("copies %s s, measured %s s" % (b["copies"], bm["copies"]))
for e in errors:
    print("error: " + e)
print("%s charges as recorded" % mode if not errors else "%s charges differ" % mode)
sys.exit(1 if errors else 0)
