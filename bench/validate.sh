#!/usr/bin/env bash
# Predictions against published GPU measurements, no GPU needed (seconds):
#   1. builds the programs of bench/validation/programs with orrery-cxx,
#   2. simulates each on the machine file of the GPU a published source
#      measured (bench/validation/data/*.csv name the program, its
#      arguments and the machine file),
#   3. prints every series' median absolute error and worst point, and
#      writes docs/validation.md with its plots (orrery-plot --validation).
#
# Usage: bench/validate.sh [build dir]   (default: build)
# Environment: OUT (directory for the programs, reports and points, default
# a new temporary one), PAGE (default docs/validation.md; "none": no page),
# MEASURED (a directory of native outputs from bench/gpu-check.sh: shown as
# a measured column).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
out=${OUT:-$(mktemp -d /tmp/orrery-validate-XXXXXX)}
page=${PAGE:-$src/docs/validation.md}
for tool in orrery-cxx orrery-run orrery-plot; do
  if [ ! -x "$build/bin/$tool" ]; then
    echo "validate.sh: $build/bin/$tool is missing; build first (make build)" >&2
    exit 1
  fi
done
mkdir -p "$out/bin"
for program in "$src"/bench/validation/programs/*.cu; do
  name=$(basename "$program" .cu)
  # A program's libraries: its "// Link:" line (e.g. -lnccl).
  read -r -a libs <<< "$(sed -n 's|^// Link: ||p' "$program")"
  "$build/bin/orrery-cxx" --orrery-quiet -O2 -o "$out/bin/$name" "$program" \
    ${libs[@]+"${libs[@]}"}
done
args=(--bin "$out/bin" --orrery-run "$build/bin/orrery-run" --src "$src"
      --out "$out")
[ -n "${MEASURED:-}" ] && args+=(--measured-column "$MEASURED")
if [ "$page" != none ]; then
  args+=(--page "$page" --plots validation)
fi
python3 "$src/bench/validation/validate.py" "${args[@]}"
if [ "$page" != none ]; then
  "$build/bin/orrery-plot" --validation "$out/validation.csv" \
    -o "$(dirname "$page")/validation" --format svg
fi
echo "validate.sh: points in $out/validation.csv"
