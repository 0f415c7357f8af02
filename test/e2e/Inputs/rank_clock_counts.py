"""Checks the report's rank_clock counters of sim-rank-clock.test's Jacobi runs.

Usage: rank_clock_counts.py ON.json OFF.json RANKS ITERATIONS
"""
import json
import sys

# Each iteration charges three launch costs and two synchronizations and
# waits for the interior kernel: six things taken ahead of the clock.
AHEAD_PER_ITERATION = 6

RANKS, ITERATIONS = int(sys.argv[3]), int(sys.argv[4])
on = json.load(open(sys.argv[1]))["rank_clock"]
off = json.load(open(sys.argv[2]))["rank_clock"]
failures = []
if on["charges_ahead"] < RANKS * ITERATIONS * AHEAD_PER_ITERATION:
    failures.append("too few charges ahead of the clock: %r" % on)
# One catch-up for several of them: before the first MPI_Sendrecv, and
# around the allreduce of the norm every few iterations.
if on["catch_ups"] * 3 > on["charges_ahead"]:
    failures.append("a catch-up for fewer than three charges: %r" % on)
if on["catch_ups"] > 1.5 * RANKS * ITERATIONS:
    failures.append("more than 1.5 catch-ups per rank and iteration: %r" % on)
if off != {"charges_ahead": 0, "catch_ups": 0}:
    failures.append("ORRERY_RANK_CLOCK=0 still ran ahead: %r" % off)
for f in failures:
    print("rank_clock_counts.py: " + f)
sys.exit(1 if failures else 0)
