#!/bin/sh
# template_deduced.sh CL1CC DB_PUT: a template kernel launched only from a
# function template, its template arguments deduced there (no launch edit
# can name a copy), gets its variant as an explicit specialization of the
# instantiation it was verified on: tk::scale<float> runs the variant
# (its PTX entry carries the variant's __launch_bounds__), tk::scale<double>
# keeps the template; cl1cc rewrite writes the same specialization, the
# file builds with nvcc, and revert gives it back byte for byte.  No GPU.
set -u
cl1cc=$(readlink -f "$1") db_put=$(readlink -f "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_CACHE_DIR="$work/cache" CL1CC_DB="$work/tuning.db"
fail=0
flags="-O3 -arch=sm_90"
cat >t.cu <<'CU'
#include <cstdio>
#include <cuda_runtime.h>
namespace tk {
template <class T>
__global__ void scale(T *x, T a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * a;
}
}
template <class T>
void run(T *x, T a, int n)
{
    tk::scale<<<(n + 255) / 256, 256>>>(x, a, n);
}
int main()
{
    float *f;
    double *d;
    cudaMalloc(&f, 1024 * sizeof(float));
    cudaMalloc(&d, 1024 * sizeof(double));
    run(f, 2.0f, 1024);
    run(d, 3.0, 1024);
    printf("%d\n", (int)cudaDeviceSynchronize());
    return 0;
}
CU
cat >variant.cu <<'CU'
template <class T>
__global__ void __launch_bounds__(256) scale(T *__restrict__ x, T a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * a;
}
CU
"$db_put" t.cu tk::scale variant.cu 2 --instances "tk::scale<float>" -- $flags >/dev/null ||
    { echo "FAIL: db_put"; exit 1; }
CL1CC_VERBOSE=1 "$cl1cc" $flags -ptx -o inst.ptx t.cu 2>inst.err
rc=$?
float_entry=$(awk '/\.entry _ZN2tk5scaleIfEEvPT_S1_i/,/^\{/' inst.ptx)
double_entry=$(awk '/\.entry _ZN2tk5scaleIdEEvPT_S1_i/,/^\{/' inst.ptx)
if [ $rc -eq 0 ] && grep -q "kernel tk::scale: verified variant .* applies" inst.err &&
    echo "$float_entry" | grep -q 'maxntid 256' && [ -n "$double_entry" ] &&
    ! echo "$double_entry" | grep -q 'maxntid'; then
    echo "ok: the variant verified on tk::scale<float> is its specialization; <double> keeps the template"
else
    echo "FAIL: the specialization (rc=$rc)"; cat inst.err; grep -A3 '\.entry' inst.ptx; fail=1
fi
"$cl1cc" $flags -o wrapped.exe t.cu 2>wrapped.err || { echo "FAIL: the wrapper's build"; cat wrapped.err; fail=1; }
cp t.cu rw.cu
"$cl1cc" rewrite --in-place --arch sm_90 rw.cu -- $flags 2>rw.err
rc=$?
if [ $rc -eq 0 ] && grep -q '^template <> *$' rw.cu &&
    grep -q '^__global__ void __launch_bounds__(256) scale<float>(float \* *cl1cc_p0, float cl1cc_p1, int cl1cc_p2)' rw.cu &&
    grep -q 'typedef float T; (void)sizeof(T); float \*__restrict__ x = cl1cc_p0; float a = cl1cc_p1; int n = cl1cc_p2;' rw.cu &&
    grep -q 'tk::scale<<<(n + 255) / 256, 256>>>(x, a, n);' rw.cu; then
    echo "ok: cl1cc rewrite writes the specialization and leaves the launch as it was"
else
    echo "FAIL: cl1cc rewrite (rc=$rc)"; cat rw.err; grep -n 'scale' rw.cu; fail=1
fi
nvcc $flags -c -o rw.o rw.cu 2>rw.nvcc || { echo "FAIL: the rewritten file does not build"; cat rw.nvcc; fail=1; }
"$cl1cc" revert rw.cu 2>revert.err
cmp -s rw.cu t.cu && echo "ok: cl1cc revert gives the file back byte for byte" ||
    { echo "FAIL: revert"; diff t.cu rw.cu | head; fail=1; }
exit $fail
