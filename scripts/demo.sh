#!/usr/bin/env bash
# The main job, as far as it exists today: instrument the Jacobi example
# (CUDA-aware MPI) and print what orrery-instrument found in it.
# Usage: scripts/demo.sh <build dir>
set -euo pipefail
build=${1:-build}
src=$(cd "$(dirname "$0")/.." && pwd)
out=$build/demo
mkdir -p "$out"

# Real CUDA 13 headers when the toolkit is here; the test suite's mock
# headers otherwise (instrumenting needs no GPU and no toolkit).
flags=(-x cuda --cuda-host-only)
if [ -f /usr/local/cuda/include/cuda_runtime.h ]; then
  flags+=(--cuda-path=/usr/local/cuda)
else
  flags+=(-nocudainc -nocudalib -isystem "$src/test/Inputs/mock")
fi
flags+=(-I/usr/include/smpi)

echo "== orrery-instrument examples/jacobi/jacobi.cu"
"$build/bin/orrery-instrument" "$src/examples/jacobi/jacobi.cu" \
  -o "$out/jacobi.instrumented.cu" --manifest "$out/jacobi.manifest.json" \
  -- "${flags[@]}" 2>"$out/instrument.log" || { cat "$out/instrument.log"; exit 1; }
tail -n 1 "$out/instrument.log"
echo
# The kernel report, with the interior Jacobi sweep of a 4096 x 4096 grid on
# 16 ranks (256 rows each) evaluated on the paper's machine.
"$build/bin/orrery-instrument" --report "$src/examples/jacobi/jacobi.cu" \
  --machine "$src/models/machines/musica-h100.yaml" \
  --launch 'jacobi_kernel grid=128,32 block=32,8 nx=4096 row_begin=2 row_end=256' \
  --launch 'init_boundary grid=3 block=128 nx=4096 my_ny=258 ny=4096 offset=0' \
  -- "${flags[@]}" 2>/dev/null
echo
echo "Instrumented source: $out/jacobi.instrumented.cu"
echo "Site manifest:       $out/jacobi.manifest.json"
