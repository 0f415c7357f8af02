#!/usr/bin/env python3
"""Consistency checks of the API tables (apis/include/orrery/apis/*.def).

Reads `orrery-instrument --list-apis=json` and checks it against another
source of truth; prints what disagrees and how to fix it, and exits 1.

  check_apis.py skeleton TABLE.json FAMILY SYMBOLS.txt
      every simulated row of FAMILY is defined in the libraries whose
      `nm -D --defined-only` output is SYMBOLS.txt
  check_apis.py entry-points TABLE.json FAMILY SYMBOLS.txt PREFIX...
      every function SYMBOLS.txt defines starting with one of PREFIXes (after
      `__wrap_`) has a row of FAMILY or is left alone on purpose
      (ORRERY_IGNORED_API in the family's .def)
  check_apis.py tested TABLE.json FAMILY DIR...
      every simulated row of FAMILY is called in some test below DIRs
  check_apis.py nonblocking TABLE.json
      every blocking MPI collective has its nonblocking variant
  check_apis.py doc-claims TABLE.json DOC...
      no page says an API the tables mark simulated "is not modelled" (or
      simulated, implemented, supported), nor that one they lack or do not
      mark simulated is
"""
import json
import os
import re
import sys

TABLES = {"cuda": "apis/include/orrery/apis/Cuda.def",
          "mpi": "apis/include/orrery/apis/Mpi.def",
          "ramc": "apis/include/orrery/apis/Ramc.def"}
SRC_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "..", "..", "..")


def rows(path, family):
    with open(path) as f:
        return [r for r in json.load(f) if r["family"] == family]


def fail(lines):
    for line in lines:
        print("error: " + line)
    sys.exit(1)


# Tables in a family's row format beside its own (the math libraries,
# NCCL).
MORE_TABLES = {"cuda": ["apis/include/orrery/apis/MathLibs.def",
                        "apis/include/orrery/apis/Nccl.def"]}


def ignored(family):
    """The calls the family's tables leave alone on purpose."""
    found = set()
    for table in [TABLES[family]] + MORE_TABLES.get(family, []):
        with open(os.path.join(SRC_ROOT, table)) as f:
            found |= set(re.findall(r"^ORRERY_IGNORED_API\((\w+)\)",
                                    f.read(), re.MULTILINE))
    return found


def canonical(symbol):
    # Versioned and per-thread-stream entry points implement the plain API;
    # a link-time wrapper (--wrap) the call it wraps.
    symbol = re.sub(r"^__wrap_", "", symbol)
    return re.sub(r"(_v[0-9]+|_ptds|_ptsz)$", "", symbol)


def defined_symbols(symbols):
    """The functions an `nm -D --defined-only` listing defines, and the calls
    they implement (canonical names)."""
    defined = set()
    with open(symbols) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[1] in ("T", "W", "i"):
                defined.add(parts[2].split("@")[0])
    return defined | {canonical(s) for s in defined}


def skeleton(table, family, symbols):
    defined = defined_symbols(symbols)
    errors = []
    for r in rows(table, family):
        if r["simulated"] and r["name"] not in defined:
            errors.append("%s: row %s is marked simulated but the skeleton "
                          "library does not define it; implement it there or "
                          "mark the row's Sim column false in %s"
                          % (symbols, r["name"], TABLES[family]))
    if errors:
        fail(errors)


def entry_points(table, family, symbols, prefixes):
    listed = {r["name"] for r in rows(table, family)} | ignored(family)
    errors = []
    for s in sorted({canonical(s) for s in defined_symbols(symbols)}):
        if s.startswith(tuple(prefixes)) and s not in listed:
            errors.append("%s: the skeleton library defines %s but no row of "
                          "%s lists it; add a row, or an ORRERY_IGNORED_API "
                          "line if the call needs no hook (otherwise the "
                          "instrumenter warns W001 on calls the simulator "
                          "implements)" % (symbols, s, TABLES[family]))
    if errors:
        fail(errors)


def tested(table, family, dirs):
    text = []
    for d in dirs:
        for root, _, files in os.walk(d):
            for name in files:
                if name.endswith((".c", ".cpp", ".cu", ".test")):
                    with open(os.path.join(root, name), errors="replace") as f:
                        text.append(f.read())
    # A test that checks the rewritten site: its entry in the site table.
    checked = set(re.findall(r'ORRERY_KIND_[A-Z]+, "(\w+)"', "\n".join(text)))
    missing = [r["name"] for r in rows(table, family)
               if r["simulated"] and r["name"] not in checked]
    if missing:
        fail(["%s is in %s but no lit test checks an instrumented call of it; "
              "add one under test/instrument (its CHECK lines come from "
              "test/utils/update_instrument_checks.py)" % (m, TABLES[family])
              for m in missing])


def nonblocking(table):
    mpi = {r["name"]: r for r in rows(table, "mpi")}
    errors = []
    for name, r in mpi.items():
        if r.get("collective") and r["blocking"]:
            rest = name[len("MPI_"):]
            nb = "MPI_I" + rest[0].lower() + rest[1:]
            other = mpi.get(nb)
            if not other or other.get("collective") != r["collective"] or \
                    other["blocking"]:
                errors.append("%s has no nonblocking collective row %s of "
                              "kind %s in %s"
                              % (name, nb, r["collective"], TABLES["mpi"]))
    if errors:
        fail(errors)


# A doc's claim about one API: "`X` is not modelled" (or "are not
# simulated", "is not implemented", ...) and "`X` is simulated" (or
# "implemented", "modelled"), the API named in backquotes within the same
# clause, before the verb.
API_NAME = r"(?:cuda|cu[A-Z]|MPI_|nccl|ramc_|cublas|cusparse|cufft|curand)\w*"
CLAIM = re.compile(r"`(" + API_NAME + r")`(?:[^.;:`]|`[^`]*`){0,80}?\b"
                   r"(?:is|are)\s+(not\s+(?:yet\s+)?)?"
                   r"(modell?ed|simulated|implemented|supported)\b")


def doc_claims(table, docs):
    """Every claim of DOCS about an API agrees with the tables."""
    with open(table) as f:
        simulated = {r["name"]: r["simulated"] for r in json.load(f)}
    problems = []
    for doc in docs:
        with open(doc) as f:
            text = f.read()
        for m in CLAIM.finditer(text):
            name, negated = m.group(1), bool(m.group(2))
            line = text.count("\n", 0, m.start()) + 1
            claim = " ".join(m.group(0).split())
            if name not in simulated:
                if not negated:
                    problems.append(
                        f"{doc}:{line}: says \"{claim}\", but {name} is "
                        "no row of the API tables: add the row or correct "
                        "the page")
                continue
            if negated and simulated[name]:
                problems.append(
                    f"{doc}:{line}: says \"{claim}\", but the API tables "
                    f"mark {name} simulated: correct the page (or the "
                    "row's Sim flag)")
            if not negated and not simulated[name]:
                problems.append(
                    f"{doc}:{line}: says \"{claim}\", but the API tables "
                    f"do not mark {name} simulated: correct the page (or "
                    "implement it and set the row's Sim flag)")
    if problems:
        fail(problems)


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "skeleton" and len(argv) == 5:
        skeleton(argv[2], argv[3], argv[4])
    elif cmd == "entry-points" and len(argv) >= 6:
        entry_points(argv[2], argv[3], argv[4], argv[5:])
    elif cmd == "tested" and len(argv) >= 5:
        tested(argv[2], argv[3], argv[4:])
    elif cmd == "nonblocking" and len(argv) == 3:
        nonblocking(argv[2])
    elif cmd == "doc-claims" and len(argv) >= 4:
        doc_claims(argv[2], argv[3:])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv)
