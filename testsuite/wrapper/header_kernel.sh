#!/bin/sh
# header_kernel.sh CL1CC DB_PUT SRC [--run]: a kernel defined in a project
# header (testsuite/wrapper/header_kernel/inc/scale.cuh, #pragma once, its
# own "..." include) that two TUs include.  Its key is the same from either
# TU; the wrapper splices its verified variant into both (the header's text
# read in place of the #include: the PTX of each holds the variant's
# __launch_bounds__, the dependency file names the user's header); `cl1cc
# rewrite` given both TUs edits the header itself, once, behind the marker,
# and `cl1cc revert` given the TUs gives it back byte for byte (and given
# the header itself).  With --run (a GPU test;
# skipped, 77, without a GPU) the program built by the wrapper from both TUs
# prints what plain nvcc's build prints, and so does the rewritten header's.
set -u
cl1cc=$(readlink -f "$1") db_put=$(readlink -f "$2") src=$(readlink -f "$3") run=${4:-}
if [ "$run" = --run ] && { ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; }; then
    echo "SKIPPED: no GPU on this machine: running the header kernel's builds needs one"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/testsuite/wrapper/header_kernel/." "$work/"
cd "$work" || exit 1
export CL1CC_CACHE_DIR="$work/cache" CL1CC_DB="$work/tuning.db"
fail=0
flags="-O3 -arch=sm_90"
cp inc/scale.cuh scale.orig

# one key, whichever TU it is computed from
key_a=$("$db_put" tu_a.cu scale_all variant.cu 3 -- $flags) || { echo "FAIL: db_put"; exit 1; }
key_b=$(CL1CC_DB="$work/other.db" "$db_put" tu_b.cu scale_all variant.cu 3 -- $flags) ||
    { echo "FAIL: db_put"; exit 1; }
if [ -n "$key_a" ] && [ "$key_a" = "$key_b" ]; then
    echo "ok: the header kernel's key is the same from both TUs"
else
    echo "FAIL: keys differ: '$key_a' vs '$key_b'"; fail=1
fi

# the wrapper: the variant in both TUs
for t in a b; do
    nvcc $flags -ptx -o plain_$t.ptx tu_$t.cu || { echo "FAIL: plain nvcc"; exit 1; }
    CL1CC_VERBOSE=1 "$cl1cc" $flags -ptx -o $t.ptx tu_$t.cu 2>$t.err
    rc=$?
    if [ $rc -eq 0 ] && grep -q "kernel scale_all of .*inc/scale.cuh: verified variant .* applies" $t.err &&
        ! grep -q "did not compile" $t.err &&
        sed -n '/^\.entry _Z9scale_allPfi(/,/^{/p' $t.ptx | grep -q '^\.maxntid 256, 1, 1' &&
        ! grep -q '\.maxntid' plain_$t.ptx; then
        echo "ok: tu_$t.cu: the header kernel's variant is spliced in (.maxntid 256)"
    else
        echo "FAIL: tu_$t.cu: the header kernel's variant (rc=$rc)"; cat $t.err; fail=1
    fi
done
if grep -q '\.entry _Z10offset_allPfi' b.ptx && ! sed -n '/\.entry _Z10offset_allPfi/,/^{/p' b.ptx | grep -q maxntid; then
    echo "ok: tu_b.cu's own kernel is left as it was"
else
    echo "FAIL: tu_b.cu's own kernel"; fail=1
fi
CL1CC_VERBOSE=1 "$cl1cc" $flags -c -o b.o tu_b.cu -MD 2>dep.err
if [ $? -eq 0 ] && grep -q '^ *inc/scale.cuh' b.d && ! grep -q 'cl1cc-' b.d &&
    grep -q 'verified variant .* applies' dep.err; then
    echo "ok: the dependency file names the user's header"
else
    echo "FAIL: dependency file"; cat dep.err; cat b.d | grep -v '^ */usr'; fail=1
fi
"$cl1cc" $flags -o wrapped.exe tu_a.cu tu_b.cu main.cu 2>wrapped.err ||
    { echo "FAIL: the wrapper's build"; cat wrapped.err; fail=1; }
if cmp -s inc/scale.cuh scale.orig; then
    echo "ok: the wrapper leaves the header as it was"
else
    echo "FAIL: the wrapper changed the header"; fail=1
fi

# cl1cc rewrite: the header itself, once, behind the marker
cp tu_a.cu tu_a.orig
cp tu_b.cu tu_b.orig
"$cl1cc" rewrite --in-place --arch sm_90 tu_a.cu tu_b.cu -- $flags 2>rw.err
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c 'cl1cc-optimized:' inc/scale.cuh)" = 1 ] &&
    grep -q '^static __global__ void __launch_bounds__(256) scale_all(float \*__restrict__ data, int n)$' inc/scale.cuh &&
    [ "$(grep -c 'kernel scale_all rewritten with a verified variant' rw.err)" = 1 ] &&
    grep -q 'inc/scale.cuh:7: kernel scale_all rewritten' rw.err &&
    cmp -s tu_a.cu tu_a.orig && cmp -s tu_b.cu tu_b.orig; then
    echo "ok: cl1cc rewrite edits the header once, the TUs not at all"
else
    echo "FAIL: cl1cc rewrite of the header (rc=$rc)"; cat rw.err; diff scale.orig inc/scale.cuh; fail=1
fi
nvcc $flags -c -o rw_a.o tu_a.cu 2>rw.nvcc || { echo "FAIL: the rewritten header does not build"; cat rw.nvcc; fail=1; }
cp inc/scale.cuh scale.rewritten
"$cl1cc" rewrite --in-place --arch sm_90 tu_a.cu tu_b.cu -- $flags 2>again.err
if cmp -s inc/scale.cuh scale.rewritten && ! grep -q 'rewritten with' again.err; then
    echo "ok: a second rewrite leaves the rewritten header alone"
else
    echo "FAIL: a second rewrite"; cat again.err; fail=1
fi
if [ "$run" = --run ]; then
    nvcc $flags -o plain.exe tu_a.cu tu_b.cu main.cu || exit 1
    nvcc $flags -o rewritten.exe tu_a.cu tu_b.cu main.cu || { echo "FAIL: rewritten build"; fail=1; }
    want=$(./plain.exe)
    for exe in wrapped rewritten; do
        if [ -n "$want" ] && [ "$(./$exe.exe)" = "$want" ]; then
            echo "ok: the $exe build prints what plain nvcc's prints: $want"
        else
            echo "FAIL: $exe build: $(./$exe.exe) vs $want"; fail=1
        fi
    done
fi
# revert given the TUs: the headers they include beside them too, once
"$cl1cc" revert tu_a.cu tu_b.cu 2>revert.err
if cmp -s inc/scale.cuh scale.orig && cmp -s tu_a.cu tu_a.orig && cmp -s tu_b.cu tu_b.orig &&
    [ "$(grep -c 'reverted' revert.err)" = 1 ] && grep -q 'inc/scale.cuh: 1 cl1cc rewrite(s) reverted' revert.err; then
    echo "ok: cl1cc revert of the TUs gives the header back byte for byte, once"
else
    echo "FAIL: revert"; cat revert.err; diff scale.orig inc/scale.cuh | head; fail=1
fi
cp scale.rewritten inc/scale.cuh
"$cl1cc" revert inc/scale.cuh 2>revert2.err
if cmp -s inc/scale.cuh scale.orig; then
    echo "ok: cl1cc revert of the header itself gives it back byte for byte"
else
    echo "FAIL: revert of the header"; cat revert2.err; fail=1
fi
exit $fail
