#!/bin/sh
# example.sh: set up on a fresh Debian machine and run cl1cc on the bundled
# example: install packages, build, inspect the example's kernels, compile it
# through cl1cc as nvcc would, and with a GPU tune it (capture its launches,
# propose, verify and time variants) and rebuild it with the winners.
set -eu
cd "$(dirname "$0")/.."
sh .ci/install-deps.sh
export PATH="$PATH:/usr/local/cuda/bin"
mkdir -p build
cmake -S . -B build/release -G Ninja >build/release.configure.log 2>&1 || { cat build/release.configure.log; exit 1; }
cmake --build build/release
cl1cc=$(pwd)/build/release/bin/cl1cc
example=testsuite/example/vector_scale.cu
echo "== what the frontend finds in $example"
$cl1cc inspect --summary $example
echo "== building it through cl1cc (a drop-in nvcc)"
CL1CC_VERBOSE=1 $cl1cc -O3 -arch=sm_90 -o build/vector_scale $example
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    echo "== running it on $(nvidia-smi -L | head -n 1)"
    build/vector_scale
    echo "== tuning it: capture, built-in proposals, verification and timing on the GPU"
    work=build/example-work
    rm -rf "$work" && mkdir -p "$work"
    cp testsuite/tune/row_sums.cu "$work/"
    (cd "$work" && CL1CC_DB=$(pwd)/tuning.db $cl1cc tune --build "nvcc -O3 -arch=sm_90 -o rs row_sums.cu" \
        --run "./rs" --kernel-evals 8 row_sums.cu -- -O3 -arch=sm_90 &&
        echo "== rebuilding it through cl1cc: the verified winner is spliced in" &&
        CL1CC_DB=$(pwd)/tuning.db CL1CC_VERBOSE=1 $cl1cc -O3 -arch=sm_90 -o rs_tuned row_sums.cu && ./rs_tuned)
else
    echo "== no GPU on this machine: skipped running build/vector_scale and tuning"
    echo "   (capturing launches, verifying and timing variants need a GPU); everything"
    echo "   above ran.  What tune does without a GPU (propose and build the variants"
    echo "   of a captured kernel) is what the test tune_without_gpu checks."
fi
