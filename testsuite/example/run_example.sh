#!/bin/sh
# run_example.sh CL1CC: builds the bundled example through cl1cc and runs it
# on the GPU; the program checks its own result.  GPU test: without a GPU it
# says so and exits 77, which ctest shows as skipped.
set -u
cl1cc=$1
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIPPED: no GPU on this machine (nvidia-smi -L lists none): vector_scale was not run"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cl1cc" -O3 -o "$work/vector_scale" "$here/vector_scale.cu" || { echo "FAIL: cl1cc could not build the example"; exit 1; }
"$work/vector_scale" || { echo "FAIL: the example computed wrong results"; exit 1; }
echo "ok: vector_scale built by cl1cc ran correctly on $(nvidia-smi -L | head -n 1)"
