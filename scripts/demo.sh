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
"$build/bin/orrery-instrument" --report "$src/examples/jacobi/jacobi.cu" -- "${flags[@]}" 2>/dev/null
echo
echo "Instrumented source: $out/jacobi.instrumented.cu"
echo "Site manifest:       $out/jacobi.manifest.json"
