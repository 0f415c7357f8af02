#!/usr/bin/env bash
# Runs the same skeleton programs against this build's liborrery-sim and
# against another one (say, of the commit before a change of mechanism), and
# checks that their simulated results are bit-identical: the JSON report
# (every field but wall time), stdout, and the timeline (events compared as
# sets, since their order in the file may differ). Exits 1 on any
# difference, naming the case and the first fields that differ.
#
# Usage: bench/same-results.sh BUILD BASELINE_LIB
#   BUILD         a build directory (its orrery-cxx and orrery-run are used)
#   BASELINE_LIB  a directory holding the other liborrery-sim.so
# Environment: OLD_ENV, settings (NAME=VALUE, space-separated) for the
# baseline runs only; e.g. OLD_ENV=ORRERY_SIMGRID_FIXES=0 with BUILD/lib as
# BASELINE_LIB compares runs with and without liborrery-simgrid-fixes.
# OLD_RUN, another orrery-run for the baseline runs: compares the platforms
# two versions generate (say, of the commit before a change of the
# platform's zones); give this build's lib as BASELINE_LIB to compare them
# alone.
set -uo pipefail
if [ $# -ne 2 ] || [ ! -x "$1/bin/orrery-run" ] ||
  [ ! -f "$2/liborrery-sim.so" ]; then
  echo "usage: $0 BUILD BASELINE_LIB (BUILD/bin/orrery-run and" \
    "BASELINE_LIB/liborrery-sim.so must exist)" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
baseline=$(cd "$2" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
inputs=$src/test/e2e/Inputs
round=$inputs/round-numbers.yaml
musica=$src/models/machines/musica-h100.yaml
read -r -a old_env <<<"${OLD_ENV:-}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for p in sim-checks polling osu-semantics nbc-device; do
  "$build/bin/orrery-cxx" --orrery-mode=skeleton -O1 "$inputs/$p.cu" \
    -o "$tmp/$p.so" 2>/dev/null || { echo "cannot build $p.cu" >&2; exit 2; }
done
"$build/bin/orrery-cxx" --orrery-mode=skeleton -O1 \
  "$src/examples/jacobi/jacobi.cu" -o "$tmp/jacobi.so" 2>/dev/null ||
  { echo "cannot build jacobi.cu" >&2; exit 2; }


cases=0 failed=0
# same NAME MACHINE RANKS_PER_NODE NP PROGRAM ARGS...
same() {
  local name=$1 machine=$2 rpn=$3 np=$4
  shift 4
  cases=$((cases + 1))
  local ok=1
  for v in new old; do
    local lib=$build/lib settings=() run=$build/bin/orrery-run
    [ $v = old ] && lib=$baseline settings=("${old_env[@]}") run=${OLD_RUN:-$run}
    env "${settings[@]}" LD_LIBRARY_PATH=$lib "$run" -np "$np" \
      --ranks-per-node "$rpn" --machine "$machine" --network ideal \
      --progress 0 --report "$tmp/$v.json" --trace "$tmp/$v.trace" "$@" \
      >"$tmp/$v.out" 2>"$tmp/$v.err" ||
      { echo "$name: the $v runtime failed:"; tail -3 "$tmp/$v.err"; ok=0; }
  done
  if [ $ok = 1 ]; then
    for kind in report trace stdout; do
      case $kind in
      report) a=$tmp/new.json b=$tmp/old.json ;;
      trace) a=$tmp/new.trace b=$tmp/old.trace ;;
      stdout) a=$tmp/new.out b=$tmp/old.out ;;
      esac
      diff=$(python3 "$src/bench/same_results.py" "$a" "$b" $kind) ||
        { echo "$diff"; ok=0; }
    done
  fi
  if [ $ok = 1 ]; then
    echo "same: $name"
  else
    echo "DIFFERENT: $name"
    failed=$((failed + 1))
  fi
}

same "overlap" "$round" 1 2 "$tmp/sim-checks.so" overlap 67108864 1048576
same "h2d 1 copy" "$round" 1 2 "$tmp/sim-checks.so" h2d 1 1048576
same "h2d 4 copies" "$round" 1 2 "$tmp/sim-checks.so" h2d 4 1048576
same "chain" "$round" 1 2 "$tmp/sim-checks.so" chain 1048576
same "kernels sharing a GPU" "$round" 1 2 "$tmp/sim-checks.so" share 16777216 268435456
same "p2p" "$round" 1 2 "$tmp/sim-checks.so" p2p 1048576
same "allreduce" "$round" 1 2 "$tmp/sim-checks.so" allreduce 1048576
same "polling" "$round" 1 2 "$tmp/polling.so" 100000000
same "nonblocking collectives" "$round" 1 2 "$tmp/nbc-device.so" 131072
same "jacobi 16 ranks" "$musica" 4 16 "$tmp/jacobi.so" \
  -nx 4096 -ny 256 -niter 20 -tol 0
same "jacobi 64 ranks" "$musica" 4 64 "$tmp/jacobi.so" \
  -nx 4096 -ny 1024 -niter 20 -tol 0
same "jacobi 8 ranks" "$musica" 4 8 "$tmp/jacobi.so" \
  -nx 1024 -ny 1024 -niter 30
# Many nodes: routes between switches (4 fat-tree leaves and a core; 34
# dragonfly routers in 2 groups; a flat switch of 130 nodes, in blocks).
same "jacobi 256 ranks, fat tree" "$musica" 4 256 "$tmp/jacobi.so" \
  -nx 1024 -ny 4096 -niter 10 -tol 0
same "jacobi 136 ranks, dragonfly" "$musica" 1 136 \
  --network-file "$src/models/machines/slingshot.yaml" "$tmp/jacobi.so" \
  -nx 1024 -ny 2176 -niter 10 -tol 0
same "jacobi 130 ranks, flat" "$round" 1 130 "$tmp/jacobi.so" \
  -nx 1024 -ny 2080 -niter 10 -tol 0
same "osu bw" "$musica" 1 2 "$tmp/osu-semantics.so" bw D 4194304
same "osu latency" "$musica" 1 2 "$tmp/osu-semantics.so" latency D 8
echo "$cases cases, $failed different"
[ $failed = 0 ]
