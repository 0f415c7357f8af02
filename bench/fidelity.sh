#!/usr/bin/env bash
# Predicted against measured on this machine, after calibration (issue 16):
# orrery-calibrate writes a machine file from mpirun -np 2 (shared memory);
# the ping-pong sweep (tool/orrery-calibrate/probes/pingpong.c) runs natively
# under mpirun (liborrery-native, measured report) and as a skeleton under
# orrery-run on the calibrated file (ideal network: latency + bytes /
# bandwidth, no SMPI factors). Prints the one-way time per size, measured and
# predicted, the median |error| per calibration size band and over the whole
# sweep, then orrery-compare on the two reports.
#
# Usage: bench/fidelity.sh [build dir]
# Environment: MAX_BYTES (default 4194304), TRIALS (default 5), MPIRUN
# (default: mpirun --allow-run-as-root --oversubscribe --mca btl self,vader).
# Target (issue 16): median error <= 15 % across the sweep.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
max=${MAX_BYTES:-4194304}
trials=${TRIALS:-5}
read -r -a mpirun <<<"${MPIRUN:-mpirun --allow-run-as-root --oversubscribe --mca btl self,vader}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PATH=$build/bin:$PATH

echo "== calibrate (mpirun -np 2, shared memory)"
orrery-calibrate -o "$tmp/m.yaml" --max-residual 100 -- "${mpirun[@]}" -np 2 |
  grep -E 'band|wrote' | sed "s|$tmp/||"
probe=$src/tool/orrery-calibrate/probes/pingpong.c
orrery-cc --orrery-mode=native -O2 "$probe" -o "$tmp/native" 2>/dev/null
orrery-cc --orrery-mode=skeleton -O2 "$probe" -o "$tmp/sim" 2>/dev/null
ORRERY_REPORT=$tmp/measured.json "${mpirun[@]}" -np 2 "$tmp/native" "$max" "$trials" >"$tmp/native.out"
orrery-run -np 2 --machine "$tmp/m.yaml" --network ideal --progress 0 \
  --report "$tmp/predicted.json" "$tmp/sim" "$max" "$trials" >"$tmp/sim.out"

echo
echo "== ping-pong sweep: one-way time, measured (native) vs predicted (orrery-run)"
python3 - "$tmp/native.out" "$tmp/sim.out" <<'PY'
import statistics, sys
def load(p):
    d = {}
    for line in open(p):
        f = line.split()
        if len(f) == 3 and f[0] == "pingpong":
            d[int(f[1])] = float(f[2])
    return d
m, p = load(sys.argv[1]), load(sys.argv[2])
bands = [(0, 4096), (4096, 65536), (65536, float("inf"))]
errs_all = []
print("%10s %12s %12s %8s" % ("bytes", "measured us", "predicted us", "error"))
for lo, hi in bands:
    errs = []
    for n in sorted(m):
        if lo <= n < hi and n in p:
            e = (p[n] - m[n]) / m[n]
            errs.append(abs(e))
            print("%10d %12.3f %12.3f %+7.1f%%" % (n, m[n] * 1e6, p[n] * 1e6, e * 100))
    if errs:
        print("  band [%d, %s): median |error| %.1f%% over %d sizes"
              % (lo, "inf" if hi == float("inf") else "%d" % hi,
                 statistics.median(errs) * 100, len(errs)))
    errs_all += errs
print("sweep: median |error| %.1f%% over %d sizes (target <= 15%%)"
      % (statistics.median(errs_all) * 100, len(errs_all)))
PY
echo
echo "== orrery-compare measured.json predicted.json (whole run, per rank)"
orrery-compare "$tmp/measured.json" "$tmp/predicted.json" | sed "s|$tmp/||"
