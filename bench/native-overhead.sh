#!/usr/bin/env bash
# What recording costs a native run: the host Jacobi
# (examples/jacobi-host) built plainly (uninstrumented, with the clang and
# MPI flags orrery-cc uses) and with orrery-cc --orrery-mode=native
# (liborrery-native), run side by side in one go: instrumented without output, with ORRERY_REPORT, and with
# ORRERY_REPORT + ORRERY_TRACE (a span per call). Small rows and many
# iterations make MPI calls frequent, so the per-call cost shows. Prints the
# best of REPEAT runs of each (the loop's time as the program prints it:
# writing the files at exit is not in it) and the ratio to the
# uninstrumented program.
#
# Usage: bench/native-overhead.sh [build dir]
# Environment: JACOBI (default "256 8 20000": columns, rows per rank,
# iterations), REPEAT (default 3), MPIRUN (default: mpirun --allow-run-as-root
# --oversubscribe --mca btl self,vader).
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
read -r -a jacobi <<<"${JACOBI:-256 8 20000}"
repeat=${REPEAT:-3}
read -r -a mpirun <<<"${MPIRUN:-mpirun --allow-run-as-root --oversubscribe --mca btl self,vader}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PATH=$build/bin:$PATH
jsrc=$src/examples/jacobi-host/jacobi-host.c
orrery-cc --orrery-mode=native -O2 "$jsrc" -o "$tmp/native" 2>/dev/null
# The uninstrumented build uses the compiler orrery-cc drives (clang): on
# this stencil clang -O2 and gcc -O2 differ by 4x, which would swamp the
# hooks' cost.
cc=$(orrery-cc --orrery-mode=native -O2 -### "$jsrc" -o "$tmp/x" 2>&1 |
  awk '$1 ~ /clang(-[0-9]+)?$/ { print $1; exit }')
read -r -a mpiflags <<<"$(mpicc --showme:compile) $(mpicc --showme:link)"
"${cc:?orrery-cc -### named no clang}" -O2 "$jsrc" "${mpiflags[@]}" -o "$tmp/plain"

# The iterations' wall time of one run of "$@", as rank 0 prints it
# (MPI_Wtime around the loop: start-up and output files excluded).
run() {
  "${mpirun[@]}" -np 2 "$@" "${jacobi[@]}" |
    awk '$1 == "jacobi-host" { for (i = 1; i < NF; ++i) if ($i == "seconds") print $(i + 1) }'
}
declare -A best
variants="plain native report trace"
for ((i = 0; i < repeat; i++)); do
  for v in $variants; do
    case $v in
      plain) t=$(run "$tmp/plain") ;;
      native) t=$(run "$tmp/native") ;;
      report) t=$(run env ORRERY_REPORT="$tmp/r-%r.json" "$tmp/native") ;;
      trace) t=$(run env ORRERY_REPORT="$tmp/r-%r.json" \
        ORRERY_TRACE="$tmp/t-%r.json" "$tmp/native") ;;
    esac
    if [[ -z ${best[$v]:-} ]] || (($(echo "$t < ${best[$v]}" | bc))); then
      best[$v]=$t
    fi
  done
done
calls=$(python3 -c "import json; print(sum(s['calls'] for s in json.load(open('$tmp/r-0.json'))['sites']))")
spans=$(python3 -c "import json; print(sum(e['ph'] == 'X' for e in json.load(open('$tmp/t-0.json'))['traceEvents']))")
echo "host Jacobi ${jacobi[*]} on 2 ranks, best of $repeat; rank 0 made $calls instrumented calls, $spans spans"
printf "%-34s %10s %8s\n" "variant" "seconds" "ratio"
for v in $variants; do
  case $v in
    plain) name="clang + MPI, uninstrumented" ;;
    native) name="liborrery-native, no output" ;;
    report) name="  + ORRERY_REPORT" ;;
    trace) name="  + ORRERY_REPORT + ORRERY_TRACE" ;;
  esac
  printf "%-34s %10.3f %8.3f\n" "$name" "${best[$v]}" \
    "$(echo "${best[$v]} / ${best[plain]}" | bc -l)"
done
