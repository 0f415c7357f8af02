#!/usr/bin/env bash
# Simulating the Jacobi example with Orrery (skeleton mode: every CUDA call,
# launch and device leg simulated) next to plain SMPI running the same MPI
# skeleton without GPU hooks (examples/jacobi/jacobi-mpi.c), side by side in
# one run: wall time and peak RSS of the simulation, and their ratio.
# Both go through orrery-run, so both get the same platform and smpirun
# configuration (musica-h100.yaml, 4 ranks per node, collectives as Open MPI).
#
# Usage: bench/simulate.sh [build dir] [GPU counts...]   (default 64 256 1024 4096)
# Environment: ITERS (default 100), REPEAT rounds, interleaved (default 1);
# SMPI_MAX (default 4096): above it Orrery runs alone (16384 65536);
# BASELINE_LIB: a directory holding another liborrery-sim.so (say, of the
# commit before a change): Orrery also runs against it (LD_LIBRARY_PATH), in
# the same rounds, and the table gains its wall time and its ratio to SMPI.
# Both run with liborrery-simgrid-fixes preloaded (orrery-run does it);
# ORRERY_SIMGRID_FIXES=0 runs both without.
# Columns: medians of the rounds' wall times and their ratio, the median of
# each round's own ratio, the ratio of the fastest, and the median of
# Orrery's events (kernels, copies, MPI messages and collectives) per wall
# second, from its report.
# Targets: Orrery / SMPI at most 1.15x (the median of the rounds' own
# ratios); 16,384 GPUs within 5 minutes, 65,536 within 30 minutes and 16 GiB.
set -euo pipefail
build=${1:-build}
shift || true
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(64 256 1024 4096)
iters=${ITERS:-100}
smpi_max=${SMPI_MAX:-4096}
repeat=${REPEAT:-1}
src=$(cd "$(dirname "$0")/.." && pwd)
machine=$src/models/machines/musica-h100.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$build/bin/orrery-cxx" --orrery-mode=skeleton -O2 \
  "$src/examples/jacobi/jacobi.cu" -o "$tmp/jacobi" 2>/dev/null
# Linked as orrery-cxx links skeleton programs (two mappings per rank's copy,
# docs/orrery-run.md "Memory mappings per rank"): with smpicc's default five,
# 16,384 ranks exceed the default vm.max_map_count and plain SMPI cannot run.
smpicc -O2 -Wl,-z,noseparate-code -Wl,-z,norelro \
  "$src/examples/jacobi/jacobi-mpi.c" -o "$tmp/jacobi-mpi" 2>/dev/null

baseline=${BASELINE_LIB:-}
if [ -n "$baseline" ] && [ ! -f "$baseline/liborrery-sim.so" ]; then
  echo "simulate.sh: BASELINE_LIB=$baseline holds no liborrery-sim.so" >&2
  exit 2
fi

# run NAME NP ARGS... -> appends "wall rss_kib" to $tmp/NAME.NP (and, for
# Orrery, the report's events per wall second to $tmp/NAME.NP.events)
run() {
  local name=$1 np=$2 env=()
  shift 2
  [ "$name" = before ] && env=(env "LD_LIBRARY_PATH=$baseline")
  rm -f "$tmp/report.json"
  "${env[@]}" /usr/bin/time -f '%e %M' -o "$tmp/time" \
    "$build/bin/orrery-run" -np "$np" --machine "$machine" --progress 0 \
    --report "$tmp/report.json" "$@" >"$tmp/out" 2>"$tmp/err" || {
    echo "simulate.sh: $name at $np GPUs failed:" >&2
    tail -5 "$tmp/err" >&2
    exit 1
  }
  cat "$tmp/time" >>"$tmp/$name.$np"
  [ "$name" = orrery ] && python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["events"]["per_wall_second"])' \
    "$tmp/report.json" >>"$tmp/$name.$np.events"
  return 0
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%6s %12s %12s %12s %12s %8s %8s %8s %10s' GPUs "orrery (s)" \
  "smpi (s)" "orrery RSS" "smpi RSS" ratio "rounds" "fastest" "events/s"
[ -n "$baseline" ] && printf ' %12s %8s' "before (s)" "ratio"
printf '\n'
for np in "${sizes[@]}"; do
  # Weak scaling: 16 interior rows of 4,096 points per GPU.
  args=(-nx 4096 -ny $((16 * np)) -niter "$iters")
  # Above SMPI_MAX GPUs Orrery runs alone (plain SMPI's five mappings per
  # rank no longer fit vm.max_map_count there): its columns only.
  alone=$((np > smpi_max))
  for ((i = 0; i < repeat; i++)); do
    [ -n "$baseline" ] && run before "$np" "$tmp/jacobi" "${args[@]}" -tol 0
    run orrery "$np" "$tmp/jacobi" "${args[@]}" -tol 0
    [ "$alone" = 1 ] || run smpi "$np" "$tmp/jacobi-mpi" "${args[@]}"
  done
  ow=$(cut -d' ' -f1 <"$tmp/orrery.$np" | median)
  orss=$(cut -d' ' -f2 <"$tmp/orrery.$np" | sort -g | tail -1)
  ev=$(median <"$tmp/orrery.$np.events")
  if [ "$alone" = 1 ]; then
    printf '%6d %12.2f %12s %9.0f MiB %12s %8s %8s %8s %10.3g' "$np" "$ow" - \
      "$(awk "BEGIN { print $orss / 1024 }")" - - - - "$ev"
    sw=0
  else
    sw=$(cut -d' ' -f1 <"$tmp/smpi.$np" | median)
    srss=$(cut -d' ' -f2 <"$tmp/smpi.$np" | sort -g | tail -1)
    # A shared machine's speed moves by a third within minutes: besides the
    # ratio of the medians, the median of each round's ratio (its two runs
    # back to back) and the ratio of the fastest runs.
    rr=$(paste -d' ' <(cut -d' ' -f1 <"$tmp/orrery.$np") \
      <(cut -d' ' -f1 <"$tmp/smpi.$np") |
      awk '{ print ($2 > 0 ? $1 / $2 : 0) }' | median)
    fr=$(awk "BEGIN { print $(cut -d' ' -f1 <"$tmp/orrery.$np" | sort -g | head -1) / \
      $(cut -d' ' -f1 <"$tmp/smpi.$np" | sort -g | head -1) }")
    printf '%6d %12.2f %12.2f %9.0f MiB %9.0f MiB %8.2f %8.2f %8.2f %10.3g' \
      "$np" "$ow" "$sw" "$(awk "BEGIN { print $orss / 1024 }")" \
      "$(awk "BEGIN { print $srss / 1024 }")" \
      "$(awk "BEGIN { print ($sw > 0 ? $ow / $sw : 0) }")" "$rr" "$fr" "$ev"
  fi
  if [ -n "$baseline" ]; then
    bw=$(cut -d' ' -f1 <"$tmp/before.$np" | median)
    printf ' %12.2f %8.2f' "$bw" "$(awk "BEGIN { print ($sw > 0 ? $bw / $sw : 0) }")"
  fi
  printf '\n'
done
