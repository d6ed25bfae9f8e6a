#!/bin/sh
# header_launch.sh CL1CC: launches written in a project header the main
# file includes itself are instrumented in place of its #include (a plain
# kernel and a template one deduced inside a function template), the
# instrumented TU compiles with nvcc; a header reached only through another
# header keeps its launch not_captured, with the reason.  No GPU needed.
set -u
cl1cc=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0
ok() { echo "ok $1"; }
bad() { echo "FAIL $1"; fail=1; }
mkdir -p "$t/p"
cat >"$t/p/ops.cuh" <<'CU'
#pragma once
__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}
template <class T> __global__ void add(T *x, T b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += b;
}
inline void run_scale(float *x, int n) { scale<<<(n + 127) / 128, 128>>>(x, 2.0f, n); }
template <class T> void run_add(T *x, T b, int n) { add<<<(n + 127) / 128, 128>>>(x, b, n); }
#include "deep.cuh"
CU
cat >"$t/p/deep.cuh" <<'CU'
#pragma once
__global__ void zero(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 0;
}
inline void run_zero(float *x, int n) { zero<<<(n + 127) / 128, 128>>>(x, n); }
CU
cat >"$t/p/main.cu" <<'CU'
#include <cuda_runtime.h>
#include "ops.cuh"
int main()
{
    float *x;
    cudaMalloc(&x, 1024 * sizeof(float));
    run_zero(x, 1024);
    run_scale(x, 1024);
    run_add(x, 1.0f, 1024);
    cudaDeviceSynchronize();
    return 0;
}
CU
(cd "$t/p" && "$cl1cc" capture --build "nvcc -arch=sm_90 -o app main.cu" --run true --out "$t/cap" main.cu) \
    >"$t/log" 2>&1
rc=$?
rec=$(ls "$t"/cap/*/instrumented 2>/dev/null | head -n 1)
[ $rc -eq 0 ] && ok "capture built the instrumented program" || { bad "capture exit $rc"; cat "$t/log"; }
[ -n "$rec" ] && head -n 1 "$rec" | grep -qx 'instrumented 2' &&
    ok "the header's two launches are instrumented" || { bad "instrumented count"; cat "$rec" 2>/dev/null; }
grep -q 'deep.cuh:7: launch of zero not_captured: the launch is in another file' "$rec" 2>/dev/null &&
    ok "a header included only by a header: not_captured, said" || { bad "deep.cuh reason"; cat "$rec" 2>/dev/null; }
grep -q 'ops.cuh.*not_captured' "$rec" 2>/dev/null && bad "an ops.cuh launch not captured" || ok "no ops.cuh launch left"
[ -z "$(cd "$t/p" && ls app 2>/dev/null)" ] && ok "the user's folder has no instrumented binary" || bad "app left in the tree"
exit $fail
