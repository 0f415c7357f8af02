#!/usr/bin/env bash
# Regenerates docs/figures.md, the simulated figures of the shipped machine
# files (bench/figures.py says what it holds), with BUILD's orrery-cxx and
# orrery-run. About 30-40 s per machine file on a 2-core machine.
#
# Usage: bench/figures.sh BUILD
set -euo pipefail
if [ $# -ne 1 ] || [ ! -x "$1/bin/orrery-run" ]; then
  echo "usage: $0 BUILD (BUILD/bin/orrery-run must exist)" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PATH="$build/bin:$PATH"
orrery-cxx --orrery-mode=skeleton -O1 "$src/test/e2e/Inputs/osu-semantics.cu" \
  -o "$tmp/osu.so"
rows=()
# The machine files test/e2e/osu-roundtrip.test checks, in its order.
for m in musica-h100 h200-node dgx-a100; do
  python3 "$src/test/e2e/Inputs/osu_roundtrip.py" orrery-run "$tmp/osu.so" \
    "$src/models/machines/$m.yaml" --rows "$tmp/$m.md" > /dev/null
  rows+=("$tmp/$m.md")
done
python3 "$src/bench/figures.py" "$src/docs/figures.md" "${rows[@]}"
echo "wrote $src/docs/figures.md"
