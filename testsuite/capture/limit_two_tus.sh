#!/bin/sh
# limit_two_tus.sh CL1CC: `--limit N` holds in a program of two
# instrumented TUs linked together (cuda-samples' mergeSort: bitonic.cu and
# mergeSort.cu): each TU's kernels get their first N launches captured, a
# plain one and a template instantiation alike.  The capture runtime's
# functions are each TU's own; as inline functions of one namespace the
# linker kept one TU's copy, whose counts the other TU's launches never
# bumped, and every launch was captured.  No GPU needed: a launch within
# the limit gets its folder before the runtime finds no device.
set -u
cl1cc=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0
ok() { echo "ok $1"; }
bad() { echo "FAIL $1"; fail=1; }
mkdir -p "$t/p"
cat >"$t/p/first.cu" <<'CU'
#include <cuda_runtime.h>
static __global__ void never(float *x) { x[threadIdx.x] = 0; }
void first_unused(float *x) { never<<<1, 32>>>(x); }
CU
cat >"$t/p/second.cu" <<'CU'
#include <cuda_runtime.h>
#include <stdio.h>
static __global__ void ranks(unsigned *x, unsigned n) { if (threadIdx.x < n) x[threadIdx.x] += n; }
template <unsigned S> __global__ void merge(unsigned *x, unsigned n) { if (threadIdx.x < n) x[threadIdx.x] += S; }
static void step(unsigned *x, unsigned n)
{
    ranks<<<1, 32>>>(x, n);
    ranks<<<1, 32>>>(x, n + 1);
    merge<1U><<<1, 32>>>(x, n);
}
int main()
{
    unsigned *x = 0;
    cudaMalloc(&x, 128);
    for (unsigned s = 1; s < 64; s <<= 1)
        step(x, s);
    printf("done\n");
    return 0;
}
CU
(cd "$t/p" && "$cl1cc" capture --build "nvcc -O3 -arch=sm_90 -o app first.cu second.cu" \
    --run "./app && nm -C app >$t/nm.txt" --limit 2 --out "$t/cap" first.cu second.cu) >"$t/log" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "capture built and ran the program" || { bad "capture exit $rc"; cat "$t/log"; }
count() { ls -d "$t"/cap/second.cu-*/"$1"/* 2>/dev/null | wc -l; }
[ "$(count k0)" -eq 2 ] && ok "ranks: 2 of its 12 launches captured" ||
    { bad "ranks: $(count k0) captured"; find "$t/cap" -maxdepth 3; }
[ "$(count k1)" -eq 2 ] && ok "merge<1>: 2 of its 6 launches captured" || bad "merge<1>: $(count k1) captured"
# no function of the runtime is one symbol shared by both TUs (weak, as
# inline functions of a named namespace are): each TU links its own
weak=$(grep -c ' [WVu] .*cl1cc_capture::' "$t/nm.txt" 2>/dev/null)
[ -s "$t/nm.txt" ] && [ "$weak" -eq 0 ] && ok "the capture runtime is each TU's own (no weak symbol)" ||
    { bad "$weak weak cl1cc_capture symbols"; grep ' [WVu] .*cl1cc_capture::' "$t/nm.txt" | head -n 5; }
exit $fail
