#!/bin/sh
# gpu_header_tune.sh CL1CC SRC: a kernel of a project header, end to end on
# a GPU (testsuite/wrapper/header_tune: inc/row_sums.cuh, included by
# tu_a.cu and tu_b.cu).  `cl1cc tune tu_a.cu` tunes the header's kernel (the
# table names the header) and records a verified faster variant; the
# wrapper applies it in both TUs and the program prints what plain nvcc's
# build prints; `cl1cc rewrite` given both TUs edits the header once (the
# TUs not at all), the rewritten program prints the same, and `cl1cc
# revert` given the TUs gives the header back byte for byte.  Skipped
# (77), with a line saying so, without a GPU.
set -u
cl1cc=$(readlink -f "$1") src=$(readlink -f "$2")
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIPPED: no GPU on this machine: tuning the header kernel needs one (wrapper_header_kernel runs instead)"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/testsuite/wrapper/header_tune/." "$work/"
cd "$work" || exit 1
export CL1CC_CACHE_DIR="$work/cache" CL1CC_DB="$work/db/tuning.db"
flags="-O3 -arch=sm_90"
fail=0
cp inc/row_sums.cuh header.orig
cp tu_a.cu tu_a.orig
cp tu_b.cu tu_b.orig
nvcc $flags -o plain tu_a.cu tu_b.cu main.cu && ./plain 1024 >plain.txt || { echo "FAIL: plain build"; exit 1; }

"$cl1cc" tune --build "nvcc $flags -o prog tu_a.cu tu_b.cu main.cu" --run "./prog 1024" \
    --json tune.json --kernel-evals 8 tu_a.cu -- $flags >out.txt 2>err.txt
rc=$?
cat out.txt
[ $rc -eq 0 ] || { echo "FAIL: tune exited $rc"; cat err.txt; fail=1; }
python3 - tune.json <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
k = {k["kernel"]: k for k in d["kernels"]}["row_sums"]
assert d["ran_on_gpu"] is True
assert k["file"].endswith("inc/row_sums.cuh"), k
assert k["status"] == "improved" and k["speedup"] > 1.0, k
print("ok: the header's row_sums improved %.2fx with %s" % (k["speedup"], k["best_label"]))
PY

CL1CC_VERBOSE=1 "$cl1cc" $flags -o tuned tu_a.cu tu_b.cu main.cu 2>wrap.txt || { echo "FAIL: the wrapper's build"; cat wrap.txt; fail=1; }
for t in tu_a tu_b; do
    grep -q "$t.cu: kernel row_sums of .*inc/row_sums.cuh: verified variant .* applies" wrap.txt ||
        { echo "FAIL: the wrapper did not apply it in $t.cu"; cat wrap.txt; fail=1; }
done
grep -q "did not compile" wrap.txt && { echo "FAIL: a spliced TU did not compile"; cat wrap.txt; fail=1; }
./tuned 1024 >tuned.txt
if cmp -s plain.txt tuned.txt; then
    echo "ok: the wrapper's build (the variant in both TUs) prints what plain nvcc's prints: $(cat plain.txt)"
else
    echo "FAIL: the tuned program prints something else"; cat plain.txt tuned.txt; fail=1
fi

"$cl1cc" rewrite --in-place --arch sm_90 tu_a.cu tu_b.cu -- $flags 2>rw.err
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c 'cl1cc-optimized:' inc/row_sums.cuh)" = 1 ] &&
    cmp -s tu_a.cu tu_a.orig && cmp -s tu_b.cu tu_b.orig; then
    echo "ok: cl1cc rewrite edits the header once, the TUs not at all"
else
    echo "FAIL: cl1cc rewrite (rc=$rc)"; cat rw.err; diff header.orig inc/row_sums.cuh; fail=1
fi
nvcc $flags -o rewritten tu_a.cu tu_b.cu main.cu && ./rewritten 1024 >rewritten.txt ||
    { echo "FAIL: the rewritten program"; fail=1; }
cmp -s plain.txt rewritten.txt && echo "ok: the rewritten header's program prints the same" ||
    { echo "FAIL: the rewritten program prints something else"; cat rewritten.txt; fail=1; }
"$cl1cc" revert tu_a.cu tu_b.cu 2>revert.err
if cmp -s inc/row_sums.cuh header.orig; then
    echo "ok: cl1cc revert gives the header back byte for byte"
else
    echo "FAIL: revert"; cat revert.err; diff header.orig inc/row_sums.cuh | head; fail=1
fi
exit $fail
