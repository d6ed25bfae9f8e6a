#!/bin/sh
# example.sh: set up on a fresh Debian machine and run cl1cc on the bundled
# example: install packages, build, inspect the example's kernels, compile it
# through cl1cc as nvcc would, and with a GPU run it, capture its launches and
# judge two variants of one kernel.
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
    echo "== capturing its launches and judging two variants of scale_clamp"
    work=build/example-work
    rm -rf "$work" && mkdir -p "$work"
    cp $example "$work/"
    (cd "$work" && $cl1cc capture --out cap --build "nvcc -O3 -arch=sm_90 -o vs vector_scale.cu" --run ./vs vector_scale.cu &&
        $cl1cc judge vector_scale.cu scale_clamp --captures cap/vector_scale.cu-*/k0 \
            --variant ../../testsuite/judge/variants/scale_clamp.correct.cu \
            --variant ../../testsuite/judge/variants/scale_clamp.off_by_one.cu -- -O3 -arch=sm_90)
else
    echo "== no GPU on this machine: skipped running build/vector_scale, capturing its"
    echo "   launches and judging variants (verifying and timing need a GPU); everything"
    echo "   above ran."
fi
