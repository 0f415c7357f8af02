#!/usr/bin/env python3
"""Summarises an ORRERY_TRACE timeline (Chrome trace JSON): the process and
thread names, then per span name and category the number of spans, sorted,
and whether each thread's spans start in order and nest or follow each
other (never overlap partly)."""
import collections
import json
import sys

events = json.load(open(sys.argv[1]))["traceEvents"]
for e in events:
    if e["ph"] == "M" and e["name"] == "process_name":
        print("process %d: %s" % (e["pid"], e["args"]["name"]))
for e in events:
    if e["ph"] == "M" and e["name"] == "thread_name":
        print("thread %d/%d: %s" % (e["pid"], e["tid"], e["args"]["name"]))
spans = [e for e in events if e["ph"] == "X"]
counts = collections.Counter((e["name"], e["cat"]) for e in spans)
for (name, cat), n in sorted(counts.items()):
    print(name, cat, n)
ordered = True
by_thread = collections.defaultdict(list)
for e in spans:
    by_thread[(e["pid"], e["tid"])].append(e)
for track in by_thread.values():
    ends = []  # ends of the spans still open
    for e in sorted(track, key=lambda e: (e["ts"], -e["dur"])):
        while ends and ends[-1] <= e["ts"]:
            ends.pop()
        if ends and e["ts"] + e["dur"] > ends[-1] + 1e-3:
            ordered = False
        ends.append(e["ts"] + e["dur"])
print("ordered:", "yes" if ordered else "no")
