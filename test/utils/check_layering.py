#!/usr/bin/env python3
"""Fails when a lower layer includes a header of a higher one.

  check_layering.py SRC_ROOT

Layers (docs/architecture.md): support/ below all; apis/, abi/ and formats/,
read by every layer (formats/ may use support/ only); models/ (the cost models); passes/ (which may ask the models)
and runtime/ (which runs the models) on them, neither including the other;
tool/ on top. So models/, passes/, support/, apis/ and abi/ include nothing
from runtime/ or tool/, and models/ nothing from passes/. An
#include "..." resolves to the repository headers whose
path ends with it; an include that resolves only into a forbidden layer is
reported with its file and line. Prints "layering: N files checked" when
nothing is wrong.
"""
import os
import re
import sys

SOURCE = (".h", ".hpp", ".def", ".c", ".cc", ".cpp", ".cu", ".inc")
# Layer -> the top-level folders it must not include from.
FORBIDDEN = {
    "support": {"runtime", "tool", "passes", "models", "apis", "abi",
                "formats"},
    "apis": {"runtime", "tool", "passes", "models"},
    "abi": {"runtime", "tool", "passes", "models"},
    "formats": {"runtime", "tool", "passes", "models", "apis", "abi"},
    "models": {"runtime", "tool", "passes"},
    "passes": {"runtime", "tool"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def files_under(root, top):
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
        dirnames[:] = [d for d in dirnames if d != "Inputs"]
        for name in filenames:
            if name.endswith(SOURCE):
                yield os.path.relpath(os.path.join(dirpath, name), root)


def main(root):
    tops = ["support", "apis", "abi", "formats", "models", "passes", "runtime",
            "tool"]
    headers = [p for top in tops for p in files_under(root, top)]
    errors, checked = [], 0
    for layer, forbidden in FORBIDDEN.items():
        for path in files_under(root, layer):
            checked += 1
            here = os.path.dirname(path)
            with open(os.path.join(root, path), errors="replace") as f:
                for line_no, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    name = m.group(1)
                    # Beside the including file first, as the compiler.
                    if os.path.exists(os.path.join(root, here, name)):
                        owners = {path.split(os.sep)[0]}
                    else:
                        owners = {h.split(os.sep)[0] for h in headers
                                  if h == name or h.endswith(os.sep + name)}
                    if owners and owners <= forbidden:
                        errors.append(f"{path}:{line_no}: includes \"{name}\" "
                                      f"from {', '.join(sorted(owners))}/, "
                                      f"a layer above {layer}/ "
                                      "(docs/architecture.md)")
    for e in errors:
        print(e)
    if not errors:
        print(f"layering: {checked} files checked")
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: check_layering.py SRC_ROOT")
    sys.exit(main(sys.argv[1]))
