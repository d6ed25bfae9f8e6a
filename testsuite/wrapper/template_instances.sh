#!/bin/sh
# template_instances.sh CL1CC DB_PUT SRC [--run]: a template kernel's
# verified variant applies to the instantiations it was verified on only.
# tk::scale of testsuite/capture/fixtures/template_two.cu is launched as
# <128, float> and <256, float>; a variant recorded as verified on
# <256, float> goes in as a renamed copy (tk::scale__cl1cc_inst) that only
# the <256, float> launch names: the PTX holds the copy's <256, float>
# instantiation and no <128, float> one; `cl1cc rewrite` writes the same
# edits behind its markers and `cl1cc revert` gives the file back byte for
# byte; a variant recorded with no instantiation is never applied.  With
# --run (a GPU test; skipped, 77, without a GPU) the wrapper's build runs
# and prints what plain nvcc's build prints.
set -u
cl1cc=$(readlink -f "$1") db_put=$(readlink -f "$2") src=$(readlink -f "$3") run=${4:-}
if [ "$run" = --run ] && { ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; }; then
    echo "SKIPPED: no GPU on this machine: running the template build needs one"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_CACHE_DIR="$work/cache"
fail=0
flags="-O3 -arch=sm_90"
cp "$src/testsuite/capture/fixtures/template_two.cu" t.cu
cp "$src/testsuite/capture/variants/scale_template_guarded.cu" variant.cu

# no instantiation recorded: never applied
export CL1CC_DB="$work/none.db"
"$db_put" t.cu tk::scale variant.cu 3 -- $flags >/dev/null || { echo "FAIL: db_put"; exit 1; }
CL1CC_VERBOSE=1 "$cl1cc" $flags -ptx -o none.ptx t.cu 2>none.err
if grep -q 'scale__cl1cc_inst' none.ptx || grep -q "kernel tk::scale: verified variant .* applies" none.err; then
    echo "FAIL: a template variant verified on no instantiation was applied"; cat none.err; fail=1
else
    echo "ok: a template variant verified on no instantiation is not applied"
fi

export CL1CC_DB="$work/tuning.db"
"$db_put" t.cu tk::scale variant.cu 3 --instances "tk::scale<256, float>" -- $flags >/dev/null ||
    { echo "FAIL: db_put"; exit 1; }
CL1CC_VERBOSE=1 "$cl1cc" $flags -ptx -o inst.ptx t.cu 2>inst.err
rc=$?
if [ $rc -eq 0 ] && grep -q "kernel tk::scale: verified variant .* applies" inst.err &&
    grep -q '^\.visible \.entry _ZN2tk17scale__cl1cc_instILi256EfEEvPT0_S1_i' inst.ptx &&
    ! grep -q 'scale__cl1cc_instILi128' inst.ptx &&
    grep -q '^\.visible \.entry _ZN2tk5scaleILi128EfEEvPT0_S1_i' inst.ptx; then
    echo "ok: the variant verified on <256, float> runs for that launch only; <128, float> keeps the template"
else
    echo "FAIL: instantiation-only application (rc=$rc)"; cat inst.err; grep '\.entry' inst.ptx; fail=1
fi
"$cl1cc" $flags -o wrapped.exe t.cu 2>wrapped.err || { echo "FAIL: the wrapper's build"; cat wrapped.err; fail=1; }

# cl1cc rewrite: the same edits in the file, behind the markers; revert restores it
cp t.cu rw.cu
"$cl1cc" rewrite --in-place --arch sm_90 rw.cu -- $flags 2>rw.err
rc=$?
if [ $rc -eq 0 ] && grep -q '^__global__ void __launch_bounds__(BLOCK) scale__cl1cc_inst(' rw.cu &&
    grep -q 'tk::scale__cl1cc_inst<256, float><<<(n + 255) / 256, 256>>>(f, 0.5f, n);' rw.cu &&
    grep -q 'tk::scale<128, float><<<(n + 127) / 128, 128>>>(f, 3.0f, n);' rw.cu; then
    echo "ok: cl1cc rewrite names the copy at the <256, float> launch only"
else
    echo "FAIL: cl1cc rewrite of a template variant (rc=$rc)"; cat rw.err; grep -n 'scale' rw.cu; fail=1
fi
nvcc $flags -c -o rw.o rw.cu 2>rw.nvcc || { echo "FAIL: the rewritten file does not build"; cat rw.nvcc; fail=1; }
"$cl1cc" revert rw.cu 2>revert.err
if cmp -s rw.cu t.cu; then
    echo "ok: cl1cc revert gives the file back byte for byte"
else
    echo "FAIL: revert"; cat revert.err; diff t.cu rw.cu | head; fail=1
fi

if [ "$run" = --run ]; then
    nvcc $flags -o plain.exe t.cu || exit 1
    if [ "$(./wrapped.exe)" = "$(./plain.exe)" ]; then
        echo "ok: the wrapper's build prints what plain nvcc's prints: $(./plain.exe)"
    else
        echo "FAIL: outputs differ: $(./wrapped.exe) vs $(./plain.exe)"; fail=1
    fi
fi
exit $fail
