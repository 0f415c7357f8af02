#!/usr/bin/env python3
"""Compares the numbers of two runs' outputs, line by line.

    compare_values.py A B REL_TOL ABS_TOL

Lines ending in a number ("rank 0 event 3 ms 1.250000") must match: the
same text before the number, in the same order, and numbers within REL_TOL
of each other (relative to the larger) or within ABS_TOL. Other lines are
ignored. Exits 1 naming the first differences.
"""
import sys


def numbered(path):
    rows = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            try:
                value = float(parts[-1])
            except ValueError:
                continue
            rows.append((" ".join(parts[:-1]), value))
    return rows


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    a, b = numbered(sys.argv[1]), numbered(sys.argv[2])
    tol, abs_tol = float(sys.argv[3]), float(sys.argv[4])
    if not a:
        sys.exit("%s: no lines ending in a number" % sys.argv[1])
    if [k for k, _ in a] != [k for k, _ in b]:
        sys.exit("%s and %s hold different lines (%d and %d numbered)" %
                 (sys.argv[1], sys.argv[2], len(a), len(b)))
    bad = [(k, x, y) for (k, x), (_, y) in zip(a, b)
           if abs(x - y) > max(abs_tol, tol * max(abs(x), abs(y)))]
    for k, x, y in bad[:5]:
        print("differ: %s: %r against %r" % (k, x, y))
    print("%d numbers compared, %d differ" % (len(a), len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
