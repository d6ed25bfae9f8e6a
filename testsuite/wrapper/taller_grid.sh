#!/bin/sh
# taller_grid.sh CL1CC DB_PUT POL_TOOL [--run]: a verified `wide_rows`
# variant (made for a grid 32 times as tall, core/launch_rule.h) in the
# tuning database: the wrapper keeps the user's kernel, adds the variant as
# a copy and launches the copy where it can edit the launch (the grid text
# may be evaluated twice), the original elsewhere; launch edits it does not
# know are never spliced.  `cl1cc rewrite` writes the same into the file
# behind markers, and `cl1cc revert` takes it out.  With --run (a GPU test;
# skipped, 77, without a GPU) the builds run and must print the same sums.
set -u
cl1cc=$(readlink -f "$1") db_put=$(readlink -f "$2") pol_tool=$(readlink -f "$3") run=${4:-}
if [ "$run" = --run ] && { ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; }; then
    echo "SKIPPED: no GPU on this machine: running the taller-grid build needs one"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_DB="$work/tuning.db" CL1CC_CACHE_DIR="$work/cache"
fail=0
flags="-O3 -arch=sm_90"
cat >rows.cu <<'CU'
#include <cstdio>
#define N 3000
#define M 700

__global__ void row_dot(int n, float *A, float *x, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < N)
    {
        out[i] = 0;
        int j;
        for (j = 0; j < M; j++)
        {
            out[i] += A[i * M + j] * x[j];
        }
    }
}

static int calls;
static int one_more_block() { return (N + 255) / 256 + 0 * calls++; }
static void (*keep)(int, float *, float *, float *) = row_dot;

int main()
{
    static float A[N * M], x[M], out[N];
    for (int i = 0; i < N * M; i++) A[i] = (float)((i * 7) % 5);
    for (int j = 0; j < M; j++) x[j] = (float)(j % 3);
    float *dA, *dx, *dout;
    if (cudaMalloc(&dA, sizeof A) || cudaMalloc(&dx, sizeof x) || cudaMalloc(&dout, sizeof out)) return 1;
    cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice);
    cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
    dim3 grid((N + 255) / 256), block(256);
    double sums[2] = {0, 0};
    for (int pass = 0; pass < 2; pass++) {
        cudaMemset(dout, 0xff, sizeof out);
        if (pass == 0)
            row_dot<<<grid, block>>>(N, dA, dx, dout);
        else
            row_dot<<<one_more_block(), 256>>>(N, dA, dx, dout);
        if (cudaDeviceSynchronize() != cudaSuccess) return 1;
        cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
        for (int i = 0; i < N; i++) sums[pass] += out[i] * (i % 11 + 1);
    }
    printf("sums %.1f %.1f %d %d\n", sums[0], sums[1], calls, keep != 0);
    return 0;
}
CU
"$pol_tool" rows.cu row_dot wide_rows --distinct --shape 256,1,1 --flat-grid >variant.cu 2>pol.err ||
    { echo "FAIL: pol_tool: $(cat pol.err)"; exit 1; }
head -n 1 variant.cu | grep -q '^/\* cl1cc-launch: grid.y x32 \*/$' ||
    { echo "FAIL: the variant does not state its launch rule"; head -n 3 variant.cu; exit 1; }
"$db_put" rows.cu row_dot variant.cu 20 --launch-edits '[{"grid_y": 32}]' -- $flags || { echo "FAIL: db_put"; exit 1; }
CL1CC_VERBOSE=1 "$cl1cc" $flags -o tall.exe rows.cu 2>verbose.err
rc=$?
if [ $rc -eq 0 ] && grep -q "kernel row_dot: verified variant" verbose.err; then
    echo "ok: the taller-grid variant applied"
else
    echo "FAIL: not applied (rc=$rc)"; cat verbose.err; fail=1
fi
"$cl1cc" $flags -ptx -o tall.ptx rows.cu 2>/dev/null
if grep -q '^\.visible \.entry .*row_dot__cl1cc_tall' tall.ptx && grep -q '^\.visible \.entry _Z7row_dotiPfS_S_' tall.ptx; then
    echo "ok: the user's kernel and the copy are both in the PTX"
else
    echo "FAIL: the PTX lacks the copy or the original"; grep '\.entry' tall.ptx; fail=1
fi
grep -q "out\[i\] += A\[i \* M + j\] \* x\[j\];" rows.cu || { echo "FAIL: the user's file changed"; fail=1; }
nvcc $flags -o plain.exe rows.cu || exit 1

# a kernel in a namespace, launched by its qualified name from outside it
sed -e 's/^__global__ void row_dot(/namespace rows {\n__global__ void row_dot(/' \
    -e 's/^static int calls;$/} \/\/ namespace rows\nstatic int calls;/' \
    -e 's/= row_dot;$/= rows::row_dot;/' -e 's/ row_dot<<</ rows::row_dot<<</' rows.cu >ns.cu
CL1CC_DB="$work/ns.db" "$db_put" ns.cu rows::row_dot variant.cu 20 --launch-edits '[{"grid_y": 32}]' -- $flags ||
    { echo "FAIL: db_put ns"; exit 1; }
CL1CC_DB="$work/ns.db" CL1CC_VERBOSE=1 "$cl1cc" $flags -o ns.exe ns.cu 2>ns.err
rc=$?
CL1CC_DB="$work/ns.db" "$cl1cc" $flags -ptx -o ns.ptx ns.cu 2>/dev/null
if [ $rc -eq 0 ] && grep -q "verified variant .* applies" ns.err && grep -q '\.entry .*row_dot__cl1cc_tall' ns.ptx; then
    echo "ok: a kernel in a namespace, launched by its qualified name"
else
    echo "FAIL: namespace (rc=$rc)"; cat ns.err; fail=1
fi

# launch edits the wrapper does not know: never spliced (they win on speedup)
cp rows.cu other.cu
"$db_put" other.cu row_dot variant.cu 30 --launch-edits '[{"site": 0, "field": "grid", "text": "7"}]' -- $flags ||
    { echo "FAIL: db_put"; exit 1; }
CL1CC_VERBOSE=1 "$cl1cc" $flags -c -o other.o other.cu 2>other.err
if [ $? -eq 0 ] && grep -q "needs launch edits: not spliced" other.err; then
    echo "ok: unknown launch edits are not spliced"
else
    echo "FAIL: unknown launch edits"; cat other.err; fail=1
fi

# a kernel launched only before its definition: nothing to edit, not spliced
{
    echo '__global__ void row_dot(int n, float *A, float *x, float *out);'
    echo 'void early(float *p) { row_dot<<<1, 256>>>(1, p, p, p); }'
    sed -n '2,/^}$/p' rows.cu
} >early.cu
# (a database of its own: the kernel's key is its text, the same as above)
CL1CC_DB="$work/early.db" "$db_put" early.cu row_dot variant.cu 20 --launch-edits '[{"grid_y": 32}]' -- $flags ||
    { echo "FAIL: db_put"; exit 1; }
CL1CC_DB="$work/early.db" CL1CC_VERBOSE=1 "$cl1cc" $flags -c -o early.o early.cu 2>early.err
if [ $? -eq 0 ] && grep -q "needs another launch configuration: not spliced (no launch site after the definition" early.err; then
    echo "ok: no editable launch site: not spliced"
else
    echo "FAIL: early launch"; cat early.err; fail=1
fi

# cl1cc rewrite puts the same into the user's file, behind markers: the
# kernel stays, the copy follows it, the editable launch picks the copy;
# cl1cc revert gives the file back byte for byte
# (a database of its own: other.cu's variant above is for the same kernel)
export CL1CC_DB="$work/rw.db"
"$db_put" rows.cu row_dot variant.cu 20 --launch-edits '[{"grid_y": 32}]' -- $flags || { echo "FAIL: db_put"; exit 1; }
cp rows.cu rw.cu
"$cl1cc" rewrite --in-place --arch sm_90 rw.cu -- $flags 2>rw.err
rc=$?
if [ $rc -eq 0 ] && grep -q "kernel row_dot rewritten with a verified variant" rw.err &&
    grep -q '^__global__ void row_dot__cl1cc_tall(' rw.cu && grep -q '^__global__ void row_dot(int n' rw.cu &&
    grep -q 'launch-edits=1' rw.cu &&
    grep -q '? row_dot__cl1cc_tall<<<dim3(dim3(grid).x, dim3(grid).y \* 32u, dim3(grid).z), block>>>(N, dA, dx, dout) : row_dot<<<grid, block>>>(N, dA, dx, dout))' rw.cu &&
    grep -q ' row_dot<<<one_more_block(), 256>>>(N, dA, dx, dout);' rw.cu; then
    echo "ok: cl1cc rewrite adds the copy and edits the launch it can"
else
    echo "FAIL: cl1cc rewrite of a taller-grid variant (rc=$rc)"; cat rw.err; fail=1
fi
nvcc $flags -ptx -o rw.ptx rw.cu 2>rw.nvcc || { echo "FAIL: the rewritten file does not build"; cat rw.nvcc; fail=1; }
if grep -q '^\.visible \.entry .*row_dot__cl1cc_tall' rw.ptx && grep -q '^\.visible \.entry _Z7row_dotiPfS_S_' rw.ptx; then
    echo "ok: the rewritten file builds with plain nvcc, both kernels in it"
else
    echo "FAIL: the rewritten file's PTX"; grep '\.entry' rw.ptx; fail=1
fi
nvcc $flags -o rw.exe rw.cu 2>/dev/null || fail=1
cp rw.cu rw.once
"$cl1cc" rewrite --in-place --arch sm_90 rw.cu -- $flags 2>rw2.err
cmp -s rw.cu rw.once || { echo "FAIL: a second rewrite changed the file"; cat rw2.err; fail=1; }
CL1CC_VERBOSE=1 "$cl1cc" $flags -ptx -o rw2.ptx rw.cu 2>rw2.verbose
[ "$(grep -c '^\.visible \.entry .*row_dot__cl1cc_tall' rw2.ptx)" = 1 ] ||
    { echo "FAIL: the wrapper spliced the rewritten file again"; cat rw2.verbose; fail=1; }
"$cl1cc" revert rw.cu 2>rv.err
if [ $? -eq 0 ] && cmp -s rw.cu rows.cu; then
    echo "ok: cl1cc revert restores the file byte for byte"
else
    echo "FAIL: revert"; cat rv.err; diff rows.cu rw.cu | head; fail=1
fi
CL1CC_DB="$work/early.db" "$cl1cc" rewrite --check --arch sm_90 early.cu -- $flags >/dev/null 2>early.rw
rc=$?
if [ $rc -eq 0 ] && grep -q "not applied: no launch site after the definition could be edited" early.rw; then
    echo "ok: cl1cc rewrite leaves it when no launch can be edited, and says why"
else
    echo "FAIL: rewrite with no editable launch (rc=$rc)"; cat early.rw; fail=1
fi

if [ "$run" = --run ]; then
    ./plain.exe >plain.out 2>&1; ./tall.exe >tall.out 2>&1; ./ns.exe >ns.out 2>&1; ./rw.exe >rw.out 2>&1
    if [ -s plain.out ] && cmp -s plain.out tall.out && cmp -s plain.out ns.out && cmp -s plain.out rw.out &&
        grep -q '^sums ' tall.out; then
        echo "ok: the taller-grid build prints what plain nvcc's does: $(cat tall.out)"
    else
        echo "FAIL: outputs differ: plain '$(cat plain.out)' cl1cc '$(cat tall.out)'"; fail=1
    fi
fi
[ $fail -eq 0 ] && echo "ok: taller grid"
exit $fail
