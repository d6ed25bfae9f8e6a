#!/bin/sh
# large_file.sh CL1CC: a valid 10 MB translation unit parses and finds its
# kernels; 10 MB of text that is not C++ gets a diagnostic with file:line;
# a file over the size limit is refused by name.  No crash in any case.
set -u
cl1cc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
# valid: a 10 MB host table plus two kernels
{
    echo '__global__ void first(float *x) { x[threadIdx.x] = 1.0f; }'
    echo 'static const float table[] = {'
    awk 'BEGIN { line = ""; for (i = 0; i < 16; i++) line = line "0.123456789f, "; for (i = 0; i < 45000; i++) print line }'
    echo '0.0f };'
    echo '__global__ void second(float *x) { x[threadIdx.x] = table[threadIdx.x]; }'
    echo 'void go(float *x) { first<<<1, 32>>>(x); second<<<1, 32>>>(x); }'
} >"$work/big.cu"
size=$(wc -c <"$work/big.cu")
[ "$size" -ge 10000000 ] || { echo "FAIL: generator made only $size bytes"; exit 1; }
out=$("$cl1cc" inspect --summary "$work/big.cu")
rc=$?
if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -q "2 kernels, 2 launches"; then
    echo "FAIL: valid 10 MB file: rc=$rc: $(printf '%s\n' "$out" | head -n 1)"; fail=1
else
    echo "ok: valid $size-byte file: $(printf '%s\n' "$out" | head -n 1)"
fi
# junk: 10 MB of words
awk 'BEGIN { for (i = 0; i < 700000; i++) print "lorem ipsum % dolor" }' >"$work/junk.cu"
err=$("$cl1cc" inspect --summary "$work/junk.cu" 2>&1 >/dev/null)
rc=$?
if [ $rc -ne 1 ] || ! printf '%s\n' "$err" | grep -q "^$work/junk.cu:1:[0-9]*: error: "; then
    echo "FAIL: junk: rc=$rc: $(printf '%s\n' "$err" | head -n 3)"; fail=1
else
    echo "ok: junk: $(printf '%s\n' "$err" | head -n 1)"
fi
# over the limit (CL1CC_MAX_SOURCE_MB)
err=$(CL1CC_MAX_SOURCE_MB=1 "$cl1cc" inspect --summary "$work/big.cu" 2>&1 >/dev/null)
rc=$?
if [ $rc -ne 1 ] || ! printf '%s\n' "$err" | grep -q "^$work/big.cu:1:1: error: file is .* over the"; then
    echo "FAIL: size limit: rc=$rc: $err"; fail=1
else
    echo "ok: size limit: $err"
fi
exit $fail
