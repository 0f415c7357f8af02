#!/usr/bin/env python3
"""Checks a simulated time against a hand-computed expression.

    check_close.py OUTPUT NAME EXPECTED REL_TOL

OUTPUT holds lines "name value" (as sim-checks prints). EXPECTED is a Python
expression over those names and max/min, e.g.
"2e-6 + 2e-6 + 1048576 / 20e9 + 2e-6". Exits 1 and says both values when
|value - expected| > REL_TOL * expected.
"""
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    path, name, expression, tol = sys.argv[1:]
    values = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2:
                try:
                    values[parts[0]] = float(parts[1])
                except ValueError:
                    pass
    if name not in values:
        sys.exit("%s: no line '%s <value>'" % (path, name))
    expected = eval(expression, {"__builtins__": {}, "max": max, "min": min},
                    values)
    got = values[name]
    error = abs(got - expected) / expected
    verdict = "ok" if error <= float(tol) else "MISMATCH"
    print("%s: %s %.9g expected %.9g (%s = %.9g), off by %.3f%% [%s]" %
          (verdict, name, got, expected, expression, expected, 100 * error,
           tol))
    sys.exit(0 if verdict == "ok" else 1)


main()
