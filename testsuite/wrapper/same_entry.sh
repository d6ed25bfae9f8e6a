#!/bin/sh
# same_entry.sh CL1CC DB_PUT: the wrapper and `cl1cc rewrite` apply the same
# database entry to a kernel (driver/apply.h decides for both).  A build for
# two archs gets a variant only when both archs have the same best one,
# launch edits included: an entry for sm_80 that needs its launch edited
# and one for sm_90 that does not are not the same variant, and neither
# path applies either (the wrapper once spliced the sm_90 one, ignoring
# sm_80's launch edits).
set -u
cl1cc=$(readlink -f "$1") db_put=$(readlink -f "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_DB="$work/tuning.db" CL1CC_CACHE_DIR="$work/cache"
fail=0
flags="-O3 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90"
cat >k.cu <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

void go(float *x, int n) { scale<<<(n + 127) / 128, 128>>>(x, n); }
CU
cat >variant.cu <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] + x[i];
}
CU
put() { # db file, arch, launch edits (or "")
    if [ -n "$3" ]; then
        CL1CC_DB="$1" "$db_put" k.cu scale variant.cu 2 --arch "$2" --launch-edits "$3" -- $flags >/dev/null
    else
        CL1CC_DB="$1" "$db_put" k.cu scale variant.cu 2 --arch "$2" -- $flags >/dev/null
    fi || { echo "FAIL: db_put $2"; exit 1; }
}
wrapper_applies() { # db file: 0 when the wrapper splices a variant
    CL1CC_DB="$1" CL1CC_VERBOSE=1 "$cl1cc" $flags -c -o k.o k.cu 2>wrap.err ||
        { echo "FAIL: the build failed"; cat wrap.err; fail=1; }
    grep -q "kernel scale: verified variant .* applies" wrap.err
}
rewrite_applies() { # db file: 0 when cl1cc rewrite --check finds a variant
    CL1CC_DB="$1" "$cl1cc" rewrite --check k.cu -- $flags >/dev/null 2>rewrite.err
    rc=$?
    [ $rc -eq 3 ] && return 0
    [ $rc -eq 0 ] && return 1
    echo "FAIL: rewrite --check exit $rc"; cat rewrite.err; fail=1; return 1
}

# the same entry on both archs: both paths apply it
put same.db sm_80 ""
put same.db sm_90 ""
if wrapper_applies same.db && rewrite_applies same.db; then
    echo "ok: the same variant on both archs: the wrapper and rewrite apply it"
else
    echo "FAIL: the same variant on both archs is not applied by both"; cat wrap.err rewrite.err; fail=1
fi

# the same source, launch edits on sm_80 only: neither applies it
put edits.db sm_80 '[{"site": 0, "field": "grid", "text": "(n + 255) / 256"}]'
put edits.db sm_90 ""
if wrapper_applies edits.db; then
    echo "FAIL: the wrapper spliced a variant whose sm_80 entry needs launch edits"; cat wrap.err; fail=1
else
    echo "ok: the wrapper applies no variant whose entries differ in launch edits"
fi
if rewrite_applies edits.db; then
    echo "FAIL: rewrite applies a variant whose entries differ in launch edits"; cat rewrite.err; fail=1
else
    echo "ok: rewrite applies none either"
fi
# and the other way round
put edits2.db sm_80 ""
put edits2.db sm_90 '[{"site": 0, "field": "grid", "text": "(n + 255) / 256"}]'
if wrapper_applies edits2.db || rewrite_applies edits2.db; then
    echo "FAIL: a variant whose sm_90 entry needs launch edits was applied"; cat wrap.err rewrite.err; fail=1
else
    echo "ok: nor when sm_90's entry has the launch edits"
fi
[ $fail -eq 0 ] && echo "ok: the wrapper and rewrite apply the same entry"
exit $fail
