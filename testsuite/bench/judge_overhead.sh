#!/bin/sh
# judge_overhead.sh CL1CC POLYBENCH-CUDA-DIR [N]: the judge's own cost per
# evaluated variant.  Captures PolyBench-ACC's 2mm through `cl1cc capture`,
# makes N correct variants of mm2_kernel1 (copies of the original with
# `#pragma unroll K` on its loop, and __restrict__ on its pointers), judges
# them all twice, alternately: the default way (every variant alone on the
# captured inputs, the survivors together afterwards) and with --isolate (a
# process for every run).  Prints the wall time of each and per variant, and
# the judge's tables.  Needs a GPU.
set -u
cl1cc=$(readlink -f "$1") pb=$2 n=${3:-8}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_DB="$work/tuning.db" CL1CC_CACHE_DIR="$work/cache"
cp -r "$pb" "$work/CUDA"
cd "$work/CUDA/linear-algebra/kernels/2mm" || exit 1
flags="-O3 -arch=sm_90 -I../../../utilities -DcudaThreadSynchronize=cudaDeviceSynchronize"
t0=$(date +%s.%N)
"$cl1cc" capture --out "$work/cap" --limit 1 --build "nvcc $flags 2mm.cu -o 2mm.exe" --run ./2mm.exe 2mm.cu || exit 1
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "capture (build + run of 2mm): %.1f s\n", b - a }'
tag=$(ls -d "$work"/cap/2mm.cu-*)
sed -n '/^__global__ void mm2_kernel1/,/^}/p' 2mm.cu >"$work/original.cu"
set --
i=0
for k in 1 2 4 8 16 32 64 128 256 512; do
    [ $i -lt "$n" ] || break
    if [ $((i % 2)) -eq 1 ]; then
        sed "s/DATA_TYPE \*\([a-zA-Z]*\)/DATA_TYPE *__restrict__ \1/g" "$work/original.cu" >"$work/r.cu"
    else
        cp "$work/original.cu" "$work/r.cu"
    fi
    awk -v k="$k" '/for \(k = 0/ { print "#pragma unroll " k } { print }' "$work/r.cu" >"$work/v$i.cu"
    set -- "$@" --variant "$work/v$i.cu" --label "unroll$k$([ $((i % 2)) -eq 1 ] && echo +restrict)"
    i=$((i + 1))
done
for mode in default isolate default isolate; do
    opt=""
    [ "$mode" = isolate ] && opt=--isolate
    a=$(date +%s.%N)
    "$cl1cc" judge 2mm.cu mm2_kernel1 --captures "$tag/k0" $opt "$@" -- $flags >"$work/$mode.txt" 2>&1
    rc=$?
    b=$(date +%s.%N)
    cat "$work/$mode.txt"
    passed=$(grep -c ' pass ' "$work/$mode.txt")
    awk -v m="$mode" -v a="$a" -v b="$b" -v n="$i" -v p="$passed" -v rc="$rc" 'BEGIN {
        printf "judge %-8s exit %d: %d variants (%d pass) in %.1f s, %.2f s per variant\n", m, rc, n, p, b - a, (b - a) / n }'
done
