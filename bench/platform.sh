#!/usr/bin/env bash
# Generating a 1,024-node SimGrid platform (target: under 2 s) next to
# loading it in SimGrid, measured side by side in one run (REPEAT rounds,
# interleaved; medians). Usage: bench/platform.sh [build dir] [nodes] [repeat]
set -euo pipefail
build=${1:-build}
nodes=${2:-1024}
repeat=${3:-5}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%-32s %10s %10s %12s\n' machine "gen (s)" "load (s)" "gen / load"
for spec in "musica-h100.yaml|" "dgx-a100.yaml|" "h200-node.yaml|slingshot.yaml"; do
  IFS='|' read -r machine network <<<"$spec"
  args=(--machine "$src/models/machines/$machine" --nodes "$nodes")
  [ -n "$network" ] && args+=(--network "$src/models/machines/$network")
  : >"$tmp/g"; : >"$tmp/l"
  for ((i = 0; i < repeat; i++)); do
    t0=$(now)
    "$build/bin/orrery-platform" "${args[@]}" -o "$tmp/p.xml" --hostfile "$tmp/p.hosts" 2>/dev/null
    t1=$(now)
    if [ -x "$build/bin/orrery-platform-routes" ]; then
      "$build/bin/orrery-platform-routes" "$tmp/p.xml" >/dev/null
    fi
    t2=$(now)
    awk "BEGIN { print $t1 - $t0 }" >>"$tmp/g"
    awk "BEGIN { print $t2 - $t1 }" >>"$tmp/l"
  done
  g=$(median <"$tmp/g"); l=$(median <"$tmp/l")
  name="${machine%.yaml}${network:+ + ${network%.yaml}}"
  printf '%-32s %10.3f %10.3f %12.2f\n' "$name" "$g" "$l" \
    "$(awk "BEGIN { print ($l > 0 ? $g / $l : 0) }")"
done
