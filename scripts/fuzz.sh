#!/usr/bin/env bash
# Runs every Orrery fuzzer, seeded from the test inputs, for FUZZ_SECONDS
# seconds in all (default 60), split between them.
#   scripts/fuzz.sh BIN_DIR RUNS_DIR
# A failing input is left in RUNS_DIR/<fuzzer>/crash-* (or leak-, timeout-,
# oom-) and the script fails; docs/fuzzing.md says how to make it a lit test.
set -euo pipefail
bin=$1
runs=$2
seconds=${FUZZ_SECONDS:-60}
src=$(cd "$(dirname "$0")/.." && pwd)
per=$((seconds / 4))
((per > 0)) || per=1

status=0
fuzz() {
  local name=$1
  shift
  local dir=$runs/$name
  rm -rf "$dir"
  mkdir -p "$dir/corpus"
  echo "fuzz: $name for ${per}s"
  if ! "$bin/$name" -max_total_time="$per" -timeout=10 -rss_limit_mb=2048 \
      -max_len=65536 -artifact_prefix="$dir/" "$dir/corpus" "$@" \
      >"$dir/log" 2>&1; then
    tail -n 40 "$dir/log"
    echo "fuzz: $name failed; the input is in $dir/ (see docs/fuzzing.md)" >&2
    status=1
  fi
}
fuzz orrery-fuzz-machine-file "$src/models/machines" "$src/test/models/Inputs"
fuzz orrery-fuzz-instrument-input "$src/test/instrument" "$src/test/report"
fuzz orrery-fuzz-study "$src/test/tools/Inputs/orrery-sweep" "$src/examples/jacobi"
fuzz orrery-fuzz-report "$src/test/tools/Inputs"
exit $status
