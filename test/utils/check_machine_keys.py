#!/usr/bin/env python3
"""docs/machine-file.md's key tables against the machine-file reader.

  check_machine_keys.py DOC KEYS

KEYS is `orrery-model check --keys FILE...`: every key path the reader asked
for while it read those files. DOC's key tables (tables whose header starts
with "| key", under the top level or a "### `SECTION`" heading) name keys
relative to their section, several to a cell (`a`, `b`) and with brace
alternatives (`x.{fp64,fp32}.div`). Fails, naming each, on a key the reader
asks for that no table names (a mapping is named when a key below it is)
and on a key a table names that the reader never asks for. Prints
"machine keys: N documented, N read" when they agree.
"""
import itertools
import re
import sys

# The four keys of every number, documented once in "Numbers".
NUMBER_FIELDS = {"value", "unit", "kind", "source"}


def expand(name):
    """`a.{b,c}.d` -> [a.b.d, a.c.d]."""
    parts = re.split(r"(\{[^}]*\})", name)
    choices = [p[1:-1].split(",") if p.startswith("{") else [p] for p in parts]
    return ["".join(c) for c in itertools.product(*choices)]


def documented(doc):
    keys, section, in_table = set(), None, False
    for line in open(doc):
        m = re.match(r"^###\s+`([a-z_]+)`", line)
        if m:
            section = m.group(1)
            continue
        if line.startswith("## "):
            section = "" if line.startswith("## File layout") else None
            continue
        if line.startswith("| key"):
            in_table = section is not None
            continue
        if not line.startswith("|"):
            in_table = False
            continue
        if not in_table or line.startswith("| ---"):
            continue
        first = line.split("|")[1]
        for name in re.findall(r"`([a-z_0-9.{},]+)`", first):
            for key in expand(name):
                keys.add(key if not section else section + "." + key)
    return keys


def main(doc, keys_file):
    read = {k.strip() for k in open(keys_file) if k.strip()}
    docs = documented(doc)
    problems = []
    for key in sorted(read):
        if key.split(".")[-1] in NUMBER_FIELDS and key not in docs:
            continue  # a number's own fields (or a key of that name)
        if key not in docs and not any(d.startswith(key + ".") for d in docs):
            problems.append(f"{doc}: the reader reads '{key}' but no key "
                            "table names it: add its row")
    for key in sorted(docs - read):
        if not any(r.startswith(key + ".") for r in read):
            problems.append(f"{doc}: a key table names '{key}' but the "
                            "reader never asks for it: drop or fix the row")
    for p in problems:
        print("error: " + p)
    if not problems:
        print(f"machine keys: {len(docs)} documented, {len(read)} read")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
