#!/bin/sh
# reshaped_blocks.sh CL1CC DB_PUT POL_TOOL [--run]: a verified `block_wide2`
# variant (made for blocks twice as wide and half as tall, grid.x halved
# and grid.y doubled: core/launch_rule.h "block x*2 y/2") in the tuning
# database: the wrapper keeps the user's kernel, adds the variant as a copy
# and launches the copy where the launch meets the rule (grid.x even,
# block.y even), the original where it does not.  `cl1cc rewrite` writes
# the same into the file.  The same for a `grid_stride4` variant ("grid.x
# /4": a grid-stride loop, picked where grid.x is a multiple of 4), and for a
# `grid_sm` variant ("grid.x sm": every launch, on a grid sized from the SM
# count at run time).  With --run (a GPU test; skipped, 77, without a
# GPU) the builds run and must print what plain nvcc's build prints: a
# launch the rule fits, one it does not (an odd grid), one with a
# one-dimensional block.
set -u
cl1cc=$(readlink -f "$1") db_put=$(readlink -f "$2") pol_tool=$(readlink -f "$3") run=${4:-}
if [ "$run" = --run ] && { ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; }; then
    echo "SKIPPED: no GPU on this machine: running the reshaped-block build needs one"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_DB="$work/tuning.db" CL1CC_CACHE_DIR="$work/cache"
fail=0
flags="-O3 -arch=sm_90"
cat >grid.cu <<'CU'
#include <cstdio>
#define NI 1000
#define NJ 1280

__global__ void smooth(const float *a, float *b)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && i < NI - 1 && j > 0 && j < NJ - 1)
        b[i * NJ + j] = 0.2f * (a[i * NJ + j] + a[(i - 1) * NJ + j] + a[(i + 1) * NJ + j] +
                                a[i * NJ + j - 1] + a[i * NJ + j + 1]) + (float)(blockIdx.x % 3);
}

int main()
{
    static float a[NI * NJ], b[NI * NJ];
    for (int i = 0; i < NI * NJ; i++) a[i] = (float)((i * 7) % 13);
    float *da, *db;
    if (cudaMalloc(&da, sizeof a) || cudaMalloc(&db, sizeof b)) return 1;
    cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
    double sums[3] = {0, 0, 0};
    for (int pass = 0; pass < 3; pass++) {
        cudaMemset(db, 0, sizeof b);
        dim3 block(32, 8), grid((NJ + 31) / 32 + (pass == 1), (NI + 7) / 8);
        if (pass < 2)
            smooth<<<grid, block>>>(da, db);
        else
            smooth<<<dim3((NJ + 255) / 256, NI), 256>>>(da, db);
        if (cudaDeviceSynchronize() != cudaSuccess) return 1;
        cudaMemcpy(b, db, sizeof b, cudaMemcpyDeviceToHost);
        for (int i = 0; i < NI * NJ; i++) sums[pass] += b[i] * (i % 11 + 1);
    }
    printf("sums %.1f %.1f %.1f\n", sums[0], sums[1], sums[2]);
    return 0;
}
CU
"$pol_tool" grid.cu smooth block_wide2 --shape 32,8,1 --grid 40,125,1 >variant.cu 2>pol.err ||
    { echo "FAIL: pol_tool: $(cat pol.err)"; exit 1; }
head -n 1 variant.cu | grep -q '^/\* cl1cc-launch: block x\*2 y/2 \*/$' ||
    { echo "FAIL: the variant does not state its launch rule"; head -n 3 variant.cu; exit 1; }
edits='[{"block": "x*2 y/2"}]'
"$db_put" grid.cu smooth variant.cu 20 --launch-edits "$edits" -- $flags || { echo "FAIL: db_put"; exit 1; }
CL1CC_VERBOSE=1 "$cl1cc" $flags -o shaped.exe grid.cu 2>verbose.err
rc=$?
if [ $rc -eq 0 ] && grep -q "kernel smooth: verified variant" verbose.err; then
    echo "ok: the reshaped-block variant applied"
else
    echo "FAIL: not applied (rc=$rc)"; cat verbose.err; fail=1
fi
"$cl1cc" $flags -ptx -o shaped.ptx grid.cu 2>/dev/null
if grep -q '^\.visible \.entry .*smooth__cl1cc_reshaped' shaped.ptx && grep -q '^\.visible \.entry _Z6smoothPKfPf' shaped.ptx; then
    echo "ok: the user's kernel and the copy are both in the PTX"
else
    echo "FAIL: the PTX lacks the copy or the original"; grep '\.entry' shaped.ptx; fail=1
fi
nvcc $flags -o plain.exe grid.cu || exit 1

export CL1CC_DB="$work/rw.db"
"$db_put" grid.cu smooth variant.cu 20 --launch-edits "$edits" -- $flags || { echo "FAIL: db_put"; exit 1; }
cp grid.cu rw.cu
"$cl1cc" rewrite --in-place --arch sm_90 rw.cu -- $flags 2>rw.err
rc=$?
cond='dim3(grid).x % 2u == 0 \&\& dim3(block).y % 2u == 0 \&\& dim3(grid).y <= 65535u / 2u'
if [ $rc -eq 0 ] && grep -q '^__global__ void smooth__cl1cc_reshaped(' rw.cu &&
    grep -q "($cond && (dim3(block).x \* 2u) \* (dim3(block).y / 2u) \* dim3(block).z <= 1024u ? smooth__cl1cc_reshaped<<<dim3(dim3(grid).x / 2u, dim3(grid).y \* 2u, dim3(grid).z), dim3(dim3(block).x \* 2u, dim3(block).y / 2u, dim3(block).z)>>>(da, db) : smooth<<<grid, block>>>(da, db))" rw.cu &&
    grep -q '? smooth__cl1cc_reshaped<<<.*: smooth<<<dim3((NJ + 255) / 256, NI), 256>>>(da, db))' rw.cu; then
    echo "ok: cl1cc rewrite adds the copy and picks it where the launch meets the rule"
else
    echo "FAIL: cl1cc rewrite of a reshaped-block variant (rc=$rc)"; cat rw.err; grep -n 'smooth' rw.cu; fail=1
fi
nvcc $flags -o rw.exe rw.cu 2>rw.nvcc || { echo "FAIL: the rewritten file does not build"; cat rw.nvcc; fail=1; }

export CL1CC_DB="$work/stride.db"
"$pol_tool" grid.cu smooth grid_stride4 --shape 32,8,1 --grid 40,125,1 >stride.cu 2>pol.err ||
    { echo "FAIL: pol_tool: $(cat pol.err)"; exit 1; }
head -n 1 stride.cu | grep -q '^/\* cl1cc-launch: grid.x /4 \*/$' ||
    { echo "FAIL: the grid-stride variant does not state its launch rule"; head -n 3 stride.cu; exit 1; }
"$db_put" grid.cu smooth stride.cu 20 --launch-edits '[{"grid_x_div": 4}]' -- $flags || { echo "FAIL: db_put"; exit 1; }
CL1CC_VERBOSE=1 "$cl1cc" $flags -o strided.exe grid.cu 2>stride.err
rc=$?
"$cl1cc" $flags -ptx -o strided.ptx grid.cu 2>/dev/null
if [ $rc -eq 0 ] && grep -q "kernel smooth: verified variant" stride.err &&
    grep -q '^\.visible \.entry .*smooth__cl1cc_strided' strided.ptx; then
    echo "ok: the grid-stride variant applied as a copy"
else
    echo "FAIL: grid-stride variant not applied (rc=$rc)"; cat stride.err; fail=1
fi

# a grid sized from the SM count at run time ("grid.x sm"): the copy takes
# the original grid's x as one more argument, and a function beside it
# sizes the grid; every launch the wrapper can edit uses it
export CL1CC_DB="$work/sm.db"
"$pol_tool" grid.cu smooth grid_sm --shape 32,8,1 --grid 40,125,1 >sm.cu 2>pol.err ||
    { echo "FAIL: pol_tool: $(cat pol.err)"; exit 1; }
head -n 1 sm.cu | grep -q '^/\* cl1cc-launch: grid.x sm \*/$' &&
    grep -q '^__global__ void smooth(const float \*a, float \*b, unsigned int cl1cc_grid_x)$' sm.cu ||
    { echo "FAIL: the grid_sm variant does not state its rule or lacks its parameter"; head -n 3 sm.cu; exit 1; }
"$db_put" grid.cu smooth sm.cu 20 --launch-edits '[{"grid_x": "sm"}]' -- $flags || { echo "FAIL: db_put"; exit 1; }
CL1CC_VERBOSE=1 "$cl1cc" $flags -o persistent.exe grid.cu 2>sm.err
rc=$?
"$cl1cc" $flags -ptx -o persistent.ptx grid.cu 2>/dev/null
if [ $rc -eq 0 ] && grep -q "kernel smooth: verified variant" sm.err &&
    grep -q '^\.visible \.entry .*smooth__cl1cc_persistent' persistent.ptx &&
    grep -q '^\.visible \.entry _Z6smoothPKfPf' persistent.ptx; then
    echo "ok: the grid_sm variant applied as a copy beside the user's kernel"
else
    echo "FAIL: grid_sm variant not applied (rc=$rc)"; cat sm.err; grep '\.entry' persistent.ptx; fail=1
fi
cp grid.cu sm_rw.cu
"$cl1cc" rewrite --in-place --arch sm_90 sm_rw.cu -- $flags 2>sm_rw.err
rc=$?
g2='dim3(dim3((NJ + 255) / 256, NI))'
if [ $rc -eq 0 ] && grep -q '^static unsigned smooth__cl1cc_persistent_grid(dim3 grid, dim3 block, size_t shmem)$' sm_rw.cu &&
    grep -q 'cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, smooth__cl1cc_persistent, t, shmem)' sm_rw.cu &&
    grep -qF 'smooth__cl1cc_persistent<<<dim3(smooth__cl1cc_persistent_grid(dim3(grid), dim3(block), 0), dim3(grid).y, dim3(grid).z), block>>>(da, db, dim3(grid).x);' sm_rw.cu &&
    grep -qF "smooth__cl1cc_persistent<<<dim3(smooth__cl1cc_persistent_grid($g2, dim3(256), 0), $g2.y, $g2.z), 256>>>(da, db, $g2.x);" sm_rw.cu; then
    echo "ok: cl1cc rewrite launches the grid_sm copy on a grid sized at run time, the original's x passed last"
else
    echo "FAIL: cl1cc rewrite of a grid_sm variant (rc=$rc)"; cat sm_rw.err; grep -n 'smooth' sm_rw.cu; fail=1
fi
nvcc $flags -o sm_rw.exe sm_rw.cu 2>sm_rw.nvcc || { echo "FAIL: the rewritten file does not build"; cat sm_rw.nvcc; fail=1; }

if [ "$run" = --run ]; then
    ./plain.exe >plain.out 2>&1; ./shaped.exe >shaped.out 2>&1; ./rw.exe >rw.out 2>&1
    ./strided.exe >strided.out 2>&1; ./persistent.exe >persistent.out 2>&1; ./sm_rw.exe >sm_rw.out 2>&1
    if [ -s plain.out ] && cmp -s plain.out shaped.out && cmp -s plain.out rw.out &&
        cmp -s plain.out strided.out && cmp -s plain.out persistent.out && cmp -s plain.out sm_rw.out &&
        grep -q '^sums ' shaped.out; then
        echo "ok: the reshaped-block, grid-stride and grid_sm builds print what plain nvcc's does: $(cat shaped.out)"
    else
        echo "FAIL: outputs differ: plain '$(cat plain.out)' cl1cc '$(cat shaped.out)' rewritten '$(cat rw.out)' strided '$(cat strided.out)' grid_sm '$(cat persistent.out)' grid_sm rewritten '$(cat sm_rw.out)'"; fail=1
    fi
fi
[ $fail -eq 0 ] && echo "ok: reshaped blocks"
exit $fail
