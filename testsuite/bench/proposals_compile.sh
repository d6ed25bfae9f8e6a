#!/bin/sh
# proposals_compile.sh POL_TOOL DIR [NVCC-FLAGS...]: every single transform
# the built-in policy would propose for every __global__ kernel of the .cu
# files under DIR (one-dimensional blocks of 256 on a flat grid of 32768,
# and blocks of 32x8 on a 256x128 grid: every launch transform applies), put
# into its file and compiled with nvcc -c; prints a table of
# kernels, transforms proposed, and builds that failed (with the first
# error).  A development check over a corpus such as PolyBench-ACC: the
# harness discards a variant that does not build, but each one costs an
# evaluation.  Exit 1 when any failed.
#   CL1CC_STUB_DIR=build/release/share/cl1cc/clang-stubs sh testsuite/bench/proposals_compile.sh \
#     build/release/testsuite/policy/pol_tool .corpus/PolyBench-ACC-CUDA \
#     -I.corpus/PolyBench-ACC-CUDA/utilities -DcudaThreadSynchronize=cudaDeviceSynchronize
set -u
pol_tool=$(readlink -f "$1") dir=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
kernels=0 tried=0 built=0 failed=0 with_rule=0
printf '%-48s %-10s %8s %s\n' "file:kernel" "shape" "proposed" "failed"
for f in $(find "$dir" -name '*.cu' | sort); do
    for k in $(sed -n 's/.*__global__[^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\) *(.*/\1/p' "$f" | sort -u); do
        kernels=$((kernels + 1))
        for shape in "256,1,1 --grid 32768,1,1" "32,8,1 --grid 256,128,1"; do
            labels=$("$pol_tool" "$f" "$k" --propose --distinct --shape $shape "$@" 2>/dev/null)
            n=0 bad=""
            for l in $labels; do
                n=$((n + 1))
                out="$work/v.cu"
                if ! "$pol_tool" "$f" "$k" "$l" --distinct --shape $shape --whole-file "$@" >"$out" 2>"$work/err"; then
                    continue # refused when applied alone: not a build failure
                fi
                # grid_sm's kernel takes the original grid's width as an
                # added parameter that the launch rule passes (the wrapper
                # rewrites the launch): the file alone cannot build
                if grep -q 'cl1cc_grid_x)' "$out"; then
                    with_rule=$((with_rule + 1))
                    continue
                fi
                built=$((built + 1))
                cp "$out" "$(dirname "$f")/.cl1cc_proposal.cu"
                if ! nvcc -c -arch=sm_90 -o "$work/v.o" "$@" "$(dirname "$f")/.cl1cc_proposal.cu" 2>"$work/nvcc"; then
                    bad="$bad $l"
                    failed=$((failed + 1))
                    echo "  $f $k $l: $(grep -m1 error "$work/nvcc")" >>"$work/failures"
                fi
                rm -f "$(dirname "$f")/.cl1cc_proposal.cu"
            done
            tried=$((tried + n))
            printf '%-48s %-10s %8d %s\n' "$(basename "$f"):$k" "${shape%% *}" "$n" "${bad:--}"
        done
    done
done
echo "kernels $kernels, proposed $tried, built $built, failed $failed, not built alone (a launch rule adds a parameter) $with_rule"
[ -f "$work/failures" ] && cat "$work/failures"
[ "$failed" -eq 0 ]
