#!/usr/bin/env bash
# Wall time of orrery-instrument against `clang++ -fsyntax-only` on the same
# files with the same flags, measured side by side (interleaved, REPEAT rounds)
# in one run; prints per-file medians and their ratio.
# Then, apart, the time --report spends in the device compile and ptxas.
# Usage: bench/instrument.sh [build dir] [repeat]
set -euo pipefail
build=${1:-build}
repeat=${2:-7}
src=$(cd "$(dirname "$0")/.." && pwd)
tool=$build/bin/orrery-instrument
clang=/usr/lib/llvm-22/bin/clang++
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mock=(-x cuda --cuda-host-only -nocudainc -nocudalib -Wno-unknown-cuda-version
      -isystem "$src/test/Inputs/mock")
real=(-x cuda --cuda-host-only --cuda-path=/usr/local/cuda
      -Wno-unknown-cuda-version $(mpicc --showme:compile 2>/dev/null))
# name | file | flag set
cases=()
if [ -f /usr/local/cuda/include/cuda_runtime.h ]; then
  cases+=("jacobi|$src/examples/jacobi/jacobi.cu|real"
          "all-apis|$src/test/instrument/Inputs/tier1/all-apis.cu|real")
fi
for f in "$src"/test/instrument/*.cu; do
  cases+=("$(basename "$f")|$f|mock")
done

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%-28s %12s %12s %8s\n' file "clang (s)" "orrery (s)" ratio
total_c=0 total_o=0
for c in "${cases[@]}"; do
  IFS='|' read -r name file set <<<"$c"
  if [ "$set" = real ]; then flags=("${real[@]}"); else flags=("${mock[@]}"); fi
  # Files the tool must refuse (already instrumented, parse errors) are skipped.
  "$tool" --quiet "$file" -o "$tmp/out" -- "${flags[@]}" >/dev/null 2>&1 || continue
  : >"$tmp/c"; : >"$tmp/o"
  for ((i = 0; i < repeat; i++)); do
    t0=$(now); "$clang" -fsyntax-only "${flags[@]}" "$file" 2>/dev/null || true; t1=$(now)
    "$tool" --quiet "$file" -o "$tmp/out" -- "${flags[@]}" 2>/dev/null; t2=$(now)
    awk "BEGIN { print $t1 - $t0 }" >>"$tmp/c"
    awk "BEGIN { print $t2 - $t1 }" >>"$tmp/o"
  done
  mc=$(median <"$tmp/c"); mo=$(median <"$tmp/o")
  total_c=$(awk "BEGIN { print $total_c + $mc }"); total_o=$(awk "BEGIN { print $total_o + $mo }")
  printf '%-28s %12.4f %12.4f %8.2f\n' "$name" "$mc" "$mo" "$(awk "BEGIN { print $mo / $mc }")"
done
printf '%-28s %12.4f %12.4f %8.2f\n' TOTAL "$total_c" "$total_o" "$(awk "BEGIN { print $total_o / $total_c }")"

# ptxas, reported apart: --report without ptxas, with ptxas and an empty cache
# (the device compile and ptxas run), and with a warm cache (the device
# compile only). Files with kernels and the real toolkit only.
ptxas=/usr/local/cuda/bin/ptxas
[ -x "$ptxas" ] || exit 0
machine=$src/models/machines/h200-node.yaml
echo
# Then instrumenting (no --report) with the GPU named, as orrery-cxx does:
# without ptxas, and reading the index the --report runs filled (the
# hints then carry ptxas's registers; no device compile).
printf '%-28s %14s %14s %14s %14s %14s\n' "file (--report)" "no ptxas (s)" "ptxas (s)" "cached (s)" \
  "instr. (s)" "instr.+index (s)"
for c in "${cases[@]}"; do
  IFS='|' read -r name file set <<<"$c"
  [ "$set" = real ] && grep -q __global__ "$file" || continue
  : >"$tmp/n"; : >"$tmp/p"; : >"$tmp/w"; : >"$tmp/i"; : >"$tmp/x"
  for ((i = 0; i < repeat; i++)); do
    rm -rf "$tmp/cache"
    t0=$(now); "$tool" --quiet --report --no-ptxas --machine "$machine" "$file" -- "${real[@]}" >/dev/null 2>&1; t1=$(now)
    "$tool" --quiet --report --ptxas-cache-dir="$tmp/cache" --machine "$machine" "$file" -- "${real[@]}" >/dev/null 2>&1; t2=$(now)
    "$tool" --quiet --report --ptxas-cache-dir="$tmp/cache" --machine "$machine" "$file" -- "${real[@]}" >/dev/null 2>&1; t3=$(now)
    awk "BEGIN { print $t1 - $t0 }" >>"$tmp/n"
    awk "BEGIN { print $t2 - $t1 }" >>"$tmp/p"
    "$tool" --quiet --no-ptxas "$file" -o "$tmp/out" -- "${real[@]}" --cuda-gpu-arch=sm_90 >/dev/null 2>&1; t4=$(now)
    "$tool" --quiet --ptxas-cache-dir="$tmp/cache" "$file" -o "$tmp/out" -- "${real[@]}" --cuda-gpu-arch=sm_90 >/dev/null 2>&1; t5=$(now)
    awk "BEGIN { print $t3 - $t2 }" >>"$tmp/w"
    awk "BEGIN { print $t4 - $t3 }" >>"$tmp/i"
    awk "BEGIN { print $t5 - $t4 }" >>"$tmp/x"
  done
  grep -q 'registers_per_thread = [1-9]' "$tmp/out" || echo "warning: $name: the index gave no registers" >&2
  printf '%-28s %14.4f %14.4f %14.4f %14.4f %14.4f\n' "$name" "$(median <"$tmp/n")" "$(median <"$tmp/p")" "$(median <"$tmp/w")" \
    "$(median <"$tmp/i")" "$(median <"$tmp/x")"
done
