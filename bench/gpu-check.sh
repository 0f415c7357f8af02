#!/usr/bin/env bash
# The GPU checks of the fidelity pipeline in one command, on a machine with an NVIDIA GPU
# (about 5 minutes on one H200 with a warm build; no network):
#   1. builds what it needs (the GPU and device-MPI probes, orrery-calibrate,
#      orrery-cxx, orrery-run, orrery-compare, the runtimes),
#   2. orrery-calibrate --gpu (host memcpy, GPU probes, and device-buffer MPI
#      under mpirun -np 2) -> calibrated.yaml,
#   3. examples/jacobi natively (measured report per rank, kernels timed on
#      the device with events; timeline), in twin mode (kernels on this GPU,
#      the rest modelled) and in skeleton mode (all modelled), both
#      simulated on calibrated.yaml,
#   4. the three side by side, then orrery-compare of each prediction
#      against the native run,
#   5. the programs of bench/validate.sh natively: the page with this GPU's
#      figures beside the published ones and the predictions
#      ($OUT/validation.md).
#
# Usage: bench/gpu-check.sh [build dir]   (default: build; configured if new)
# Environment: NP (ranks, default 1: every rank shares the one GPU natively
# and in twin mode, so one rank compares like with like), NX, NY, NITER
# (default 4096, 4096, 200), OUT (directory for the files, default a new
# temporary one, kept), MPIRUN (default: mpirun --allow-run-as-root
# --oversubscribe), JOBS (build parallelism, default nproc), MAX_RESIDUAL
# (orrery-calibrate --max-residual, default 0.5).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
np=${NP:-1}
nx=${NX:-4096}
ny=${NY:-4096}
niter=${NITER:-200}
out=${OUT:-$(mktemp -d /tmp/orrery-gpu-check-XXXXXX)}
jobs=${JOBS:-$(nproc)}
read -r -a mpirun <<<"${MPIRUN:-mpirun --allow-run-as-root --oversubscribe}"
mkdir -p "$out"
start=$(date +%s)
step() { echo; echo "== $* ($(($(date +%s) - start)) s)"; }

if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "gpu-check: error: nvidia-smi lists no GPU; run this on the GPU machine" >&2
  exit 1
fi
nvidia-smi -L

step "build ($build)"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$out/cmake.log"
else
  # Again, so that the lit feature 'gpu' is detected on this machine.
  cmake "$build" >"$out/cmake.log"
fi
ninja -C "$build" -j "$jobs" orrery-calibrate orrery-probe-gpu orrery-probe-memcpy \
  orrery-probe-mpi-device \
  orrery-cxx orrery-instrument orrery-run orrery-compare orrery-model \
  orrery_sim orrery_twin orrery_native orrery_skeleton_entry >"$out/build.log"
export PATH=$build/bin:$PATH

step "calibrate: orrery-calibrate --gpu --probes memcpy -- ${mpirun[*]} -np 2"
orrery-calibrate --gpu --probes memcpy --max-residual "${MAX_RESIDUAL:-0.5}" \
  --base "$src/models/machines/h200-node.yaml" --name h200-gpu-check \
  -o "$out/calibrated.yaml" -- "${mpirun[@]}" -np 2 | tee "$out/calibrate.log"

step "build examples/jacobi in three modes"
jacobi=$src/examples/jacobi/jacobi.cu
for mode in native twin skeleton; do
  orrery-cxx --orrery-mode=$mode -O2 "$jacobi" -o "$out/jacobi-$mode" 2>"$out/build-$mode.log"
done
args=(-nx "$nx" -ny "$ny" -niter "$niter" -tol 0)

step "native: ${mpirun[*]} -np $np jacobi ${args[*]}"
ORRERY_REPORT=$out/native-%r.json ORRERY_TRACE=$out/native-trace-%r.json \
  "${mpirun[@]}" -np "$np" "$out/jacobi-native" "${args[@]}" |
  tee "$out/native.out" | tail -n 2
native=("$out"/native-[0-9]*.json)
python3 - "${native[@]}" <<'PY'
import json, sys
for path in sys.argv[1:]:
    r = json.load(open(path))
    for k in r["kernels"]:
        print("  rank %d kernel %-16s %-22s %5d launches, %4s on the device, %.6f s" % (
            r["rank"], k["name"], k["site"].split("/")[-1], k["launches"],
            k.get("device_launches", 0), k["seconds"]))
    for w in r["warnings"]:
        print("  rank %d warning: %s" % (r["rank"], w))
PY
step "twin: orrery-run -np $np --machine calibrated.yaml"
orrery-run -np "$np" --machine "$out/calibrated.yaml" --progress 0 \
  --report "$out/twin.json" "$out/jacobi-twin" "${args[@]}" >"$out/twin.out"
grep -E '^jacobi' "$out/twin.out"
step "skeleton: orrery-run -np $np --machine calibrated.yaml"
orrery-run -np "$np" --machine "$out/calibrated.yaml" --progress 0 \
  --report "$out/skeleton.json" "$out/jacobi-skeleton" "${args[@]}" >"$out/skeleton.out"
grep -E '^jacobi' "$out/skeleton.out"

step "side by side (seconds per rank)"
orrery-compare --json "${native[@]}" "$out/twin.json" >"$out/twin-compare.json"
orrery-compare --json "${native[@]}" "$out/skeleton.json" >"$out/skeleton-compare.json"
python3 - "$out/twin-compare.json" "$out/skeleton-compare.json" "$out/twin.json" <<'PY'
import json, os, sys
twin, skel, twin_report = (json.load(open(p)) for p in sys.argv[1:4])
def rows(c):
    return {(r["group"], r["name"]): r for r in c["rows"]}
t, s = rows(twin), rows(skel)
def label(key):
    # Sites name files by path; the base name is enough side by side.
    return " ".join([key[0]] + [os.path.basename(w) for w in key[1].split()])
def fmt(v):
    return "-" if v is None else "%.6f" % v
def err(r):
    return "-" if r is None or r["error"] is None else "%+.1f%%" % (100 * r["error"])
print("%-44s %12s %12s %9s %12s %9s" % ("row", "native", "twin", "err", "skeleton", "err"))
for key in sorted(set(t) | set(s), key=lambda k: (k[0] != "total", k)):
    a, b = t.get(key), s.get(key)
    measured = (a or b)["measured_seconds"]
    print("%-44s %12s %12s %9s %12s %9s" % (
        label(key)[:44], fmt(measured),
        fmt(a and a["predicted_seconds"]), err(a),
        fmt(b and b["predicted_seconds"]), err(b)))
print("median |error|: twin %s, skeleton %s" % (
    "%.1f%%" % (100 * twin["median_abs_error"]) if twin["median_abs_error"] is not None else "-",
    "%.1f%%" % (100 * skel["median_abs_error"]) if skel["median_abs_error"] is not None else "-"))
bm = twin_report["breakdown_measured"]
print("twin: kernel time %s; measured %.6f s of kernels, %.6f s of copies (all ranks)" % (
    twin_report["kernel_time"], bm["kernel_compute"] + bm["kernel_memory"], bm["copies"]))
PY

step "orrery-compare native-*.json twin.json"
orrery-compare "${native[@]}" "$out/twin.json"
step "orrery-compare native-*.json skeleton.json"
orrery-compare "${native[@]}" "$out/skeleton.json"
step "validation programs natively (the measured column of docs/validation.md)"
# Each published dataset names a program of bench/validation/programs and its
# arguments: run each pair once on this GPU, as bench/validate.sh runs it
# simulated, and regenerate the page beside the other files with this GPU's
# figures next to the published ones (docs/validation.md is not touched).
vdir="$out/validation-native"
mkdir -p "$vdir/bin"
for data in "$src"/bench/validation/data/*.csv; do
  program=$(sed -n 's/^# program: *//p' "$data")
  args=$(sed -n 's/^# args: *//p' "$data")
  name=$(echo "$program $args" | sed 's/ *$//; s/ /_/g')
  [ -e "$vdir/$name.csv" ] && continue
  if [ ! -x "$vdir/bin/$program" ]; then
    orrery-cxx --orrery-mode=native --orrery-quiet -O2 \
      "$src/bench/validation/programs/$program.cu" -o "$vdir/bin/$program"
  fi
  # shellcheck disable=SC2086 # the arguments are words
  "$vdir/bin/$program" $args > "$vdir/$name.csv"
  echo "$name: $(wc -l < "$vdir/$name.csv") points"
done
OUT="$out/validation" PAGE="$out/validation.md" MEASURED="$vdir" \
  "$src/bench/validate.sh" "$build"

step "done: files in $out"
