#!/bin/sh
# judge_overhead.sh CL1CC POLYBENCH-CUDA-DIR VARIANT: captures PolyBench-ACC's
# 2mm through `cl1cc capture`, judges VARIANT of mm2_kernel1 (and a copy of
# the original, as a second variant) and prints the judge's table and its
# wall time per evaluated variant.  Needs a GPU.
set -u
cl1cc=$(readlink -f "$1") pb=$2 variant=$(readlink -f "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_DB="$work/tuning.db" CL1CC_CACHE_DIR="$work/cache"
cp -r "$pb" "$work/CUDA"
cd "$work/CUDA/linear-algebra/kernels/2mm" || exit 1
flags="-O3 -arch=sm_90 -I../../../utilities -DcudaThreadSynchronize=cudaDeviceSynchronize"
t0=$(date +%s.%N)
"$cl1cc" capture --out "$work/cap" --limit 2 --build "nvcc $flags 2mm.cu -o 2mm.exe" --run ./2mm.exe 2mm.cu || exit 1
t1=$(date +%s.%N)
tag=$(ls -d "$work"/cap/2mm.cu-*)
sed -n '/^__global__ void mm2_kernel1/,/^}/p' 2mm.cu >"$work/original_copy.cu"
"$cl1cc" judge 2mm.cu mm2_kernel1 --captures "$tag/k0" --record --variant "$variant" \
    --variant "$work/original_copy.cu" -- $flags
t2=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "capture (build + run of 2mm): %.1f s; judge of 2 variants: %.1f s, %.1f s per variant\n", b - a, c - b, (c - b) / 2 }'
# the wrapper applies the verified variant; the program's own check passes
CL1CC_VERBOSE=1 "$cl1cc" $flags 2mm.cu -o 2mm_tuned.exe 2>&1 | grep -i "variant" || echo "(no variant applied)"
./2mm_tuned.exe | grep -i "non-matching\|time"
./2mm.exe | grep -i "time"
