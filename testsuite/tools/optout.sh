#!/bin/sh
# optout.sh CL1CC DB_PUT: `// cl1cc: off` on the line before a kernel, or a
# block comment saying so on its first line, keeps it from the tuner, the
# nvcc wrapper and `cl1cc rewrite`, though the database has a verified
# variant of it; the unmarked kernel beside them still gets its own.
set -u
cl1cc=$(readlink -f "$1") put=$(readlink -f "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_DB="$work/t.db" HOME="$work"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
cat >k.cu <<'CU'
// cl1cc: off
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}
__global__ void twice(float *x, int n) /* cl1cc:off (hand-tuned) */
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}
// cl1cc: offload is not an opt-out
__global__ void plain(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}
void go(float *x, int n) { scale<<<1, 128>>>(x, n); twice<<<1, 128>>>(x, n); plain<<<1, 128>>>(x, n); }
CU
for k in scale twice plain; do
    printf '__global__ void %s(float *x, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)\n        x[i] = x[i] + x[i];\n}\n' $k >v_$k.cu
    "$put" k.cu $k v_$k.cu 1.5 -- -O3 -arch=sm_90 >/dev/null || bad "db_put $k"
done
"$cl1cc" rewrite --check k.cu -- -O3 -arch=sm_90 >rw.out 2>&1; rc=$?
if [ $rc -eq 3 ] && grep -q "kernel plain can be rewritten" rw.out && ! grep -q "kernel scale\|kernel twice" rw.out; then
    ok "rewrite: only the unmarked kernel"; else bad "rewrite: rc=$rc"; cat rw.out; fi
cp k.cu k.orig
"$cl1cc" rewrite --in-place k.cu -- -O3 -arch=sm_90 >/dev/null 2>&1
[ "$(grep -c "cl1cc-optimized" k.cu)" -ge 1 ] && ! grep -q "cl1cc-optimized: kernel=scale\|cl1cc-optimized: kernel=twice" k.cu \
    && ok "rewrite --in-place leaves the marked kernels as they are" || { bad "rewrite --in-place"; cat k.cu; }
cp k.orig k.cu
CL1CC_VERBOSE=1 "$cl1cc" -c -O3 -arch=sm_90 k.cu -o k.o 2>wrap.err || { bad "wrapper"; cat wrap.err; }
grep -q "kernel plain: verified variant .* applies" wrap.err && ! grep -q "kernel scale: verified\|kernel twice: verified" wrap.err \
    && ok "wrapper: only the unmarked kernel is spliced" || { bad "wrapper"; cat wrap.err; }
mkdir cap
"$cl1cc" tune --captures cap k.cu -- -O3 -arch=sm_90 >tune.out 2>&1
grep -q "kernel scale is marked .cl1cc: off.: not tuned" tune.out && grep -q "kernel twice is marked" tune.out \
    && ! grep -q "kernel plain is marked" tune.out && grep -q " plain " tune.out \
    && ok "tune: the marked kernels are not tuned" || { bad "tune"; cat tune.out; }
exit $fail
