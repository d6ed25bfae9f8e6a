#!/bin/sh
# gpu_judge.sh CL1CC: the judge on a GPU.  Captures the bundled example's
# launches through `cl1cc capture`, then judges correct and deliberately
# wrong or cheating variants of its two kernels: each must get the verdict
# written next to it below (and the same for signed_sums.cu and
# running_extrema.cu, unjudgeable.cu; GPU_JUDGE_ONLY="running_extrema unjudgeable": those alone).  Then records the verified ones and checks that
# `cl1cc` as nvcc applies them and the program still computes right.
# GPU test: without a GPU it says so and exits 77 (ctest: skipped).
set -u
cl1cc=$(readlink -f "$1")
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIPPED: no GPU on this machine (nvidia-smi -L lists none): the judge was not run"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_DB="$work/tuning.db" CL1CC_CACHE_DIR="$work/cache"
cp "$here/../example/vector_scale.cu" "$work/"
cd "$work" || exit 1
fail=0
flags="-O3 -arch=sm_90"
v=$here/variants
. "$here/expect.sh"

# an output the kernel also reads through fmaxf or fminf (dif[j] =
# fmaxf(x[j], dif[j])), launched first on dif = 0 (1e30 for fminf), where
# fmaxf(x, NaN) = x hides the read: dif is no pure output (issue 29: NaN
# alone made it one and every correct variant then ran on a poisoned dif).
# The correct variants pass; those ignoring dif fail on the second launch.
running_extrema() {
    cp "$here/running_extrema.cu" "$work/"
    if "$cl1cc" capture --out "$work/cap3" --build "nvcc $flags -o re running_extrema.cu" --run ./re running_extrema.cu >capture3.log 2>&1; then
        tag3=$(ls -d "$work"/cap3/running_extrema.cu-*)
        for k in running_max:k0 running_min:k1; do
            name=${k%:*}
            "$cl1cc" judge running_extrema.cu "$name" --captures "$tag3/${k#*:}" --timeout 20 \
                --variant "$v/$name.correct.cu" --variant "$v/$name.ignores_dif.cu" \
                -- $flags >"judge_$name.txt" 2>"judge_$name.err" || cat "judge_$name.err"
            cat "judge_$name.txt"
            expect "judge_$name.txt" "$v/$name.correct.cu" pass
            expect "judge_$name.txt" "$v/$name.ignores_dif.cu" wrong
        done
    else
        echo "FAIL: capture of running_extrema"; cat capture3.log; fail=1
    fi
}
# a kernel reading a __constant__ array the program set: the capture holds
# it, so a variant is judged on it (one that ignores it is wrong); and
# kernels no capture can judge, each with its reason named: one reads a
# __device__ variable declared after its launch (state the capture lacks),
# one writes where its atomics put the elements (nondeterministic)
unjudgeable() {
    cp "$here/unjudgeable.cu" "$work/"
    if "$cl1cc" capture --out "$work/cap4" --build "nvcc $flags -o un unjudgeable.cu" --run ./un unjudgeable.cu >capture4.log 2>&1; then
        tag4=$(ls -d "$work"/cap4/unjudgeable.cu-*)
        grep -q '^symbol [0-9]* coef$' "$tag4"/k0/0/meta && echo "ok: the capture holds __constant__ coef" ||
            { echo "FAIL: no 'symbol N coef' in the capture's meta"; cat "$tag4"/k0/0/meta; fail=1; }
        "$cl1cc" judge unjudgeable.cu scale_by_coef --captures "$tag4/k0" --timeout 20 \
            --variant "$v/scale_by_coef.same.cu" --variant "$v/scale_by_coef.ignores_coef.cu" \
            -- $flags >judge_coef.txt 2>judge_coef.err || cat judge_coef.err
        cat judge_coef.txt
        expect judge_coef.txt "$v/scale_by_coef.same.cu" pass
        expect judge_coef.txt "$v/scale_by_coef.ignores_coef.cu" wrong
        grep -q "^1 captured launch(es) repeat an earlier one on the same inputs" judge_coef.txt &&
            echo "ok: the repeated launch of scale_by_coef is checked once" ||
            { echo "FAIL: the repeated launch of scale_by_coef was not recognised"; fail=1; }
        for k in scale_by_late:k1:"depends on state the capture lacks (it uses __device__ late_gain" \
            compact_positive:k2:"the original kernel is nondeterministic"; do
            name=${k%%:*} rest=${k#*:}
            "$cl1cc" judge unjudgeable.cu "$name" --captures "$tag4/${rest%%:*}" --timeout 20 \
                --variant "$v/$name.same.cu" -- $flags >"judge_$name.txt" 2>"judge_$name.err"
            rc=$?
            if [ $rc -ne 0 ] && grep -qF "${rest#*:}" "judge_$name.err"; then
                echo "ok: $name: not judged: $(tail -n 1 "judge_$name.err")"
            else
                echo "FAIL: $name: expected the judge to refuse with '${rest#*:}' (exit $rc)"; cat "judge_$name.err"; fail=1
            fi
        done
    else
        echo "FAIL: capture of unjudgeable"; cat capture4.log; fail=1
    fi
}
# GPU_JUDGE_ONLY="running_extrema unjudgeable" (either or both): those cases alone
if [ -n "${GPU_JUDGE_ONLY:-}" ]; then
    for case in $GPU_JUDGE_ONLY; do
        case $case in running_extrema | unjudgeable) "$case" ;; *) echo "FAIL: no case $case"; fail=1 ;; esac
    done
    exit $fail
fi
t0=$(date +%s)
if ! "$cl1cc" capture --out "$work/cap" --build "nvcc $flags -o vs vector_scale.cu" --run ./vs vector_scale.cu >capture.log 2>&1; then
    echo "FAIL: capture"; cat capture.log; exit 1
fi
t1=$(date +%s)
tag=$(ls -d "$work"/cap/vector_scale.cu-*)
for k in k0 k1; do
    n=$(ls -d "$tag/$k"/*/ 2>/dev/null | wc -l)
    [ "$n" -ge 1 ] || { echo "FAIL: no captures of $k"; cat capture.log; exit 1; }
done
echo "ok: captured both kernels in $((t1 - t0)) s ($(ls -d "$tag"/k0/*/ | wc -l) and $(ls -d "$tag"/k1/*/ | wc -l) launches)"

t0=$(date +%s)
"$cl1cc" judge vector_scale.cu scale_clamp --captures "$tag/k0" --timeout 10 --record \
    --variant "$v/scale_clamp.correct.cu" --variant "$v/scale_clamp.crashes_when_perturbed.cu" \
    --variant "$v/scale_clamp.off_by_one.cu" \
    --variant "$v/scale_clamp.half_work.cu" --variant "$v/scale_clamp.noop.cu" \
    --variant "$v/scale_clamp.returns_input.cu" --variant "$v/scale_clamp.out_of_bounds.cu" \
    --variant "$v/scale_clamp.modifies_input.cu" --variant "$v/scale_clamp.caches.cu" \
    --variant "$v/scale_clamp.low_precision.cu" --variant "$v/scale_clamp.hangs.cu" \
    --variant "$v/scale_clamp.syntax_error.cu" -- $flags >judge0.txt 2>judge0.err
rc=$?
t1=$(date +%s)
cat judge0.txt
[ $rc -eq 0 ] || { echo "FAIL: judge exited $rc"; cat judge0.err; fail=1; }
expect judge0.txt "$v/scale_clamp.correct.cu" pass
expect judge0.txt "$v/scale_clamp.crashes_when_perturbed.cu" crash
expect judge0.txt "$v/scale_clamp.off_by_one.cu" wrong
expect judge0.txt "$v/scale_clamp.half_work.cu" wrong
expect judge0.txt "$v/scale_clamp.noop.cu" wrong
expect judge0.txt "$v/scale_clamp.returns_input.cu" wrong
expect judge0.txt "$v/scale_clamp.out_of_bounds.cu" crash
expect judge0.txt "$v/scale_clamp.modifies_input.cu" wrong
expect judge0.txt "$v/scale_clamp.caches.cu" wrong
expect judge0.txt "$v/scale_clamp.low_precision.cu" wrong
expect judge0.txt "$v/scale_clamp.hangs.cu" timeout
expect judge0.txt "$v/scale_clamp.syntax_error.cu" build_error
echo "judge wall time for 12 variants of scale_clamp: $((t1 - t0)) s"

# the same verdicts with a process for every run (--isolate)
"$cl1cc" judge vector_scale.cu scale_clamp --captures "$tag/k0" --timeout 10 --isolate \
    --variant "$v/scale_clamp.correct.cu" --variant "$v/scale_clamp.crashes_when_perturbed.cu" \
    --variant "$v/scale_clamp.caches.cu" -- $flags >judge_iso.txt 2>judge_iso.err
cat judge_iso.txt
expect judge_iso.txt "$v/scale_clamp.correct.cu" pass
expect judge_iso.txt "$v/scale_clamp.crashes_when_perturbed.cu" crash
expect judge_iso.txt "$v/scale_clamp.caches.cu" wrong

# a variant for a grid sized from the SM count ("grid.x sm": the original
# grid's x passed last; 16384 blocks of 256 on about 1000): right when it
# loops over the original's blocks, wrong when it runs the first wave only
"$cl1cc" judge vector_scale.cu scale_clamp --captures "$tag/k0" --timeout 10 \
    --variant "$v/scale_clamp.grid_sm.cu" --variant "$v/scale_clamp.grid_sm_first_wave.cu" \
    -- $flags >judge_sm.txt 2>judge_sm.err
cat judge_sm.txt
expect judge_sm.txt "$v/scale_clamp.grid_sm.cu" pass
expect judge_sm.txt "$v/scale_clamp.grid_sm_first_wave.cu" wrong

"$cl1cc" judge vector_scale.cu row_sums --captures "$tag/k1" --timeout 20 --record --sanitize \
    --variant "$v/row_sums.correct_unrolled.cu" --variant "$v/row_sums.race.cu" -- $flags >judge1.txt 2>judge1.err
rc=$?
cat judge1.txt
[ $rc -eq 0 ] || { echo "FAIL: judge exited $rc"; cat judge1.err; fail=1; }
expect judge1.txt "$v/row_sums.correct_unrolled.cu" pass
expect judge1.txt "$v/row_sums.race.cu" wrong
if grep -q "clean under compute-sanitizer\|compute-sanitizer not found" judge1.txt; then echo "ok: the winner went through compute-sanitizer (or it is missing: $(grep -c 'not found' judge1.txt))"; else echo "FAIL: no sanitizer report"; fail=1; fi
ls "$tag"/k0/0/*.gz >/dev/null 2>&1 && echo "ok: captures stored compressed" || { echo "FAIL: captures not compressed"; fail=1; }

# sums that cancel: a reordered sum differs from the original by more than
# rtol * |result| yet less than rtol * the sum of |terms| (the original's
# run on absolute inputs): it passes; dropping a term does not
cp "$here/signed_sums.cu" "$work/"
if "$cl1cc" capture --out "$work/cap2" --build "nvcc $flags -o ss signed_sums.cu" --run ./ss signed_sums.cu >capture2.log 2>&1; then
    tag2=$(ls -d "$work"/cap2/signed_sums.cu-*)
    "$cl1cc" judge signed_sums.cu signed_sums --captures "$tag2/k0" --timeout 20 \
        --variant "$v/signed_sums.reordered.cu" --variant "$v/signed_sums.drops_term.cu" \
        -- $flags >judge2.txt 2>judge2.err
    cat judge2.txt
    expect judge2.txt "$v/signed_sums.reordered.cu" pass
    expect judge2.txt "$v/signed_sums.drops_term.cu" wrong
else
    echo "FAIL: capture of signed_sums"; cat capture2.log; fail=1
fi

running_extrema

unjudgeable

# verified variants recorded: nothing else may be in the database
n=$(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('select count(*) from variants where verified=1').fetchone()[0])" "$CL1CC_DB" 2>/dev/null || echo "?")
[ "$n" = 2 ] && echo "ok: 2 verified variants recorded" || { echo "FAIL: $n verified variants recorded, expected 2"; fail=1; }

# the wrapper applies what was recorded when it is faster, and the program stays right
CL1CC_VERBOSE=1 "$cl1cc" $flags -o vs2 vector_scale.cu 2>wrap.err || { echo "FAIL: cl1cc build"; cat wrap.err; fail=1; }
cat wrap.err
./vs2 || { echo "FAIL: the program built with variants computes wrong results"; fail=1; }
exit $fail
