#!/usr/bin/env python3
"""Fails when a source file of the tree is over a line limit.

  check_file_sizes.py ROOT [LIMIT]   (LIMIT default 600)

Source files: C, C++, CUDA, Python, shell, CMake and the API tables (.def)
under ROOT, build trees and test inputs aside. Prints each file over the
limit with its length, or "file sizes: N files of at most LIMIT lines".
"""
import os
import sys

SUFFIXES = (".c", ".h", ".cpp", ".cu", ".py", ".def", ".sh", ".cmake")
SKIP = {".git", "Inputs", "build", "build-sanitize"}


def main(root, limit):
    over, count = [], 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames
                             if d not in SKIP and not d.startswith("build"))
        for name in sorted(filenames):
            if not (name.endswith(SUFFIXES) or name == "CMakeLists.txt"):
                continue
            path = os.path.join(dirpath, name)
            with open(path, "rb") as f:
                lines = f.read().count(b"\n")
            count += 1
            if lines > limit:
                over.append(f"{os.path.relpath(path, root)}: {lines} lines, "
                            f"over {limit}: split it by role")
    for line in over:
        print(line)
    if not over:
        print(f"file sizes: {count} files of at most {limit} lines")
    return 1 if over else 0


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 600))
