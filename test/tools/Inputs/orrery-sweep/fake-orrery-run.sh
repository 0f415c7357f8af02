#!/bin/sh
# Stands in for orrery-run in orrery-sweep's tests (no SimGrid needed).
# Appends "run: ARGS" to $FAKE_LOG, then writes a report to the --report
# path: simulated_seconds = 1 / np, the machine file named by --machine.
#   FAKE_FAIL=N         a point of N ranks exits 3 (its log says so)
#   FAKE_KILL=N         a point of N ranks writes half a report, then dies
#                       of SIGKILL (a point killed mid-run)
#   FAKE_HANG=N         a point of N ranks writes its pid to $FAKE_HANG_PID
#                       and sleeps (a point still running)
#   FAKE_STOP_SWEEP=N   a point of N ranks writes half a report, sends
#                       SIGTERM to orrery-sweep (its parent) and waits to
#                       be stopped (the sweep interrupted mid-point)
report= np= machine= network=smpi
echo "run: $*" >> "${FAKE_LOG:-/dev/null}"
while [ $# -gt 0 ]; do
  case "$1" in
    --report) report=$2; shift ;;
    -np) np=$2; shift ;;
    --machine) machine=$2; shift ;;
    --network) network=$2; shift ;;
  esac
  shift
done
echo "fake orrery-run: $np ranks on $machine"
if [ "$np" = "${FAKE_HANG:-}" ]; then
  echo $$ > "$FAKE_HANG_PID"
  exec sleep 60
fi
if [ "$np" = "${FAKE_FAIL:-}" ]; then
  echo "fake orrery-run: failing as asked" >&2
  exit 3
fi
if [ "$np" = "${FAKE_KILL:-}" ] || [ "$np" = "${FAKE_STOP_SWEEP:-}" ]; then
  printf '{"schema": "orrery-sim-report/1", "breakdown": {' > "$report"
  [ "$np" = "${FAKE_KILL:-}" ] && kill -KILL $$
  kill -TERM "$PPID"
  exec sleep 60
fi
name=$(basename "$machine" .yaml)
sim=$(awk "BEGIN { print 1 / $np }")
cat > "$report" <<JSON
{
  "schema": "orrery-sim-report/1",
  "machine": {"name": "$name", "file": "$machine"},
  "network_mode": "$network",
  "ranks": $np, "nodes": 1, "ranks_per_node": $np,
  "simulated_seconds": $sim,
  "wall_seconds": 0.5,
  "breakdown": {"kernel_compute": $(awk "BEGIN { print 0.5 * $np * $sim }"), "network": $(awk "BEGIN { print 0.25 * $np * $sim }"), "launch": 0.001},
  "gpu_seconds": 0.1,
  "gpu_estimated_seconds": 0,
  "kernels": [
    {"name": "jacobi_kernel", "site": "jacobi.cu:149", "launches": 20,
     "flops": 1e9, "bytes": 2e9, "seconds": $sim, "estimated_seconds": 0,
     "confidence": "exact"},
    {"name": "init, boundary", "site": "jacobi.cu:61", "launches": 1,
     "flops": 0, "bytes": 1e6, "seconds": 1e-6, "estimated_seconds": 0,
     "confidence": "exact"}
  ],
  "completed": true,
  "warnings": []
}
JSON
