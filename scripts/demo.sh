#!/usr/bin/env bash
# The main job: instrument the Jacobi example (CUDA-aware MPI), build it in
# skeleton mode (no GPU, no nvcc, no libcudart) and simulate it on 16 GPUs of
# the default machine model, then print the report; last, a scaling study
# (4 to 64 GPUs on two machines, docs/sweeps.md) and its plots.
# Usage: scripts/demo.sh <build dir>
set -euo pipefail
build=${1:-build}
src=$(cd "$(dirname "$0")/.." && pwd)
out=$build/demo
mkdir -p "$out"
machine=$src/models/machines/musica-h100.yaml

echo "== orrery-cxx --orrery-mode=skeleton examples/jacobi/jacobi.cu"
# The instrumenter's warnings (calls inside the CUDA_RT_CALL macro body) go
# to a log; the driver fails loudly on real errors.
"$build/bin/orrery-cxx" --orrery-mode=skeleton -O2 \
  "$src/examples/jacobi/jacobi.cu" -o "$out/jacobi" 2>"$out/build.log" ||
  { cat "$out/build.log"; exit 1; }
echo "   built $out/jacobi ($(grep -c 'orrery-W' "$out/build.log" || true) instrumenter warnings in $out/build.log)"
echo
echo "== orrery-run -np 16 --machine models/machines/musica-h100.yaml jacobi -niter 100 -tol 0"
# -tol 0: device memory reads back as zeros in skeleton mode, so the run
# length comes from the iteration count (docs/simulate.md).
"$build/bin/orrery-run" -np 16 --machine "$machine" \
  --report "$out/report.json" --trace "$out/trace.json" \
  "$out/jacobi" -nx 4096 -ny 4096 -niter 100 -tol 0

echo
echo "== orrery-sweep examples/jacobi/scaling-study.yaml: 4 to 64 GPUs on two machines"
# The example study with this build's skeleton and absolute model paths.
study=$out/scaling-study.yaml
abs_out=$(cd "$out" && pwd)
sed -e "s|^program: .*|program: $abs_out/jacobi|" \
    -e "s|\.\./\.\./models/|$src/models/|g" \
    "$src/examples/jacobi/scaling-study.yaml" >"$study"
"$build/bin/orrery-sweep" "$study" -o "$out/scaling"
if "$build/bin/orrery-plot" "$out/scaling" >"$out/plot.log" 2>&1; then
  echo
  echo "Scaling study: $out/scaling/results.csv (one row per point and category, and per kernel)"
  echo "Plots:         $out/scaling/plots/{scaling,breakdown,kernels}.{svg,png}"
else
  cat "$out/plot.log"
  echo "orrery-plot failed (is python3-matplotlib installed? make deps); the table is $out/scaling/results.csv"
fi
