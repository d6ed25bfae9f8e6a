#!/bin/sh
# example.sh: set up on a fresh Debian machine and run cl1cc on the bundled
# example: install packages, build, inspect the example's kernels, compile it
# through cl1cc as nvcc would, and run it when a GPU is present.
set -eu
cd "$(dirname "$0")/.."
sh .ci/install-deps.sh
export PATH="$PATH:/usr/local/cuda/bin"
mkdir -p build
cmake -S . -B build/release -G Ninja >build/release.configure.log 2>&1 || { cat build/release.configure.log; exit 1; }
cmake --build build/release
cl1cc=build/release/cl1cc
example=testsuite/example/vector_scale.cu
echo "== what the frontend finds in $example"
$cl1cc inspect --summary $example
echo "== building it through cl1cc (a drop-in nvcc)"
CL1CC_VERBOSE=1 $cl1cc -O3 -o build/vector_scale $example
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    echo "== running it on $(nvidia-smi -L | head -n 1)"
    build/vector_scale
else
    echo "== no GPU on this machine: skipped running build/vector_scale, and skipped"
    echo "   tuning (verifying and timing variants needs a GPU); everything above ran."
fi
