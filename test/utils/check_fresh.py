#!/usr/bin/env python3
"""Fails when a committed generated file differs from the build's copy.

  check_fresh.py COMMITTED GENERATED REFRESH

Prints the difference and REFRESH, the command that regenerates the
committed copy (docs generated from the source's tables, such as
docs/report.md and docs/apis.md, or from simulations, docs/figures.md).
"""
import difflib
import sys


def main(committed, generated, refresh):
    with open(committed) as f:
        a = f.readlines()
    with open(generated) as f:
        b = f.readlines()
    if a == b:
        print("fresh: %s" % committed)
        return 0
    sys.stdout.writelines(difflib.unified_diff(a, b, committed, generated))
    print("error: %s is stale: what it is generated from changed. "
          "Refresh it with `%s` and commit it" % (committed, refresh))
    return 1


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
