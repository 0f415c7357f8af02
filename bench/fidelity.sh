#!/usr/bin/env bash
# Predicted against measured on this machine, after calibration:
# orrery-calibrate writes a machine file from mpirun -np 2 (shared memory);
# the ping-pong sweep (tool/orrery-calibrate/probes/pingpong.c) runs natively
# under mpirun (liborrery-native, measured report) and as a skeleton under
# orrery-run on the calibrated file (ideal network: latency + bytes /
# bandwidth, no SMPI factors). Prints the one-way time per size, measured and
# predicted, the median |error| per calibration size band and over the whole
# sweep, then orrery-compare on the two reports. Then the host Jacobi
# (examples/jacobi-host) natively and as a skeleton under orrery-run
# --host-compute (SMPI times the host code between MPI calls and charges it):
# total and per category, measured vs predicted.
#
# Usage: bench/fidelity.sh [build dir]
# Environment: MAX_BYTES (default 4194304), TRIALS (default 5), MPIRUN
# (default: mpirun --allow-run-as-root --oversubscribe --mca btl self,vader),
# JACOBI (default "1024 128 200": columns, rows per rank, iterations).
# Targets: median error <= 15 % across the sweep, <= 20 % on
# Jacobi's total.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
max=${MAX_BYTES:-4194304}
trials=${TRIALS:-5}
read -r -a jacobi <<<"${JACOBI:-1024 128 200}"
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
ORRERY_REPORT=$tmp/measured-%r.json "${mpirun[@]}" -np 2 "$tmp/native" "$max" "$trials" >"$tmp/native.out"
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
echo "== orrery-compare measured-0.json measured-1.json predicted.json (whole run and per MPI site, per rank)"
orrery-compare "$tmp/measured-0.json" "$tmp/measured-1.json" "$tmp/predicted.json" | sed "s|$tmp/||"

echo
echo "== host Jacobi (examples/jacobi-host, ${jacobi[*]}): measured (native) vs predicted (orrery-run --host-compute)"
jsrc=$src/examples/jacobi-host/jacobi-host.c
orrery-cc --orrery-mode=native -O2 "$jsrc" -o "$tmp/jnative" 2>/dev/null
orrery-cc --orrery-mode=skeleton -O2 "$jsrc" -o "$tmp/jsim" 2>/dev/null
ORRERY_REPORT=$tmp/jm-%r.json "${mpirun[@]}" -np 2 "$tmp/jnative" "${jacobi[@]}"
orrery-run -np 2 --machine "$tmp/m.yaml" --network ideal --host-compute \
  --progress 0 --report "$tmp/jp.json" "$tmp/jsim" "${jacobi[@]}"
python3 - "$tmp/jp.json" "$tmp"/jm-*.json <<'PY'
import json, sys
pred = json.load(open(sys.argv[1]))
meas = [json.load(open(p)) for p in sys.argv[2:]]
ranks = pred["ranks"]
mpi_keys = ("network", "call_overhead", "host_bounce", "device_legs",
            "reduction")
def row(name, m, p):
    e = (p - m) / m if m > 0 else float("nan")
    print("  %-13s %12.3f ms %12.3f ms %+8.1f%%" % (name, m * 1e3, p * 1e3,
                                                    e * 100))
    return e
print("  %-13s %15s %15s %9s" % ("", "measured", "predicted", "error"))
# The run takes its slowest rank's time; categories are means over ranks.
m_total = max(r["measured_seconds"] for r in meas)
p_total = pred["simulated_seconds"]
m_mpi = sum(r["breakdown"].get(k, 0) for r in meas for k in mpi_keys) / len(meas)
p_mpi = sum(pred["breakdown"].get(k, 0) for k in mpi_keys) / ranks
m_host = sum(r["breakdown"].get("host_compute", 0) for r in meas) / len(meas)
# --host-compute gives the simulated report its own host_compute row.
p_host = pred["breakdown"]["host_compute"] / ranks
e = row("total", m_total, p_total)
row("host_compute", m_host, p_host)
row("mpi", m_mpi, p_mpi)
print("jacobi: total error %+.1f%% (target |error| <= 20%%)" % (e * 100))
PY
echo
echo "== orrery-compare jm-0.json jm-1.json jp.json (Jacobi, per rank and per MPI site)"
orrery-compare "$tmp/jm-0.json" "$tmp/jm-1.json" "$tmp/jp.json" | sed "s|$tmp/||"
