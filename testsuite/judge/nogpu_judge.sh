#!/bin/sh
# nogpu_judge.sh CL1CC: without a GPU, `cl1cc judge` builds the replay driver
# with every variant, gives the one that does not compile build_error, and
# says plainly that verifying and timing were skipped (exit 0).  Runs on a
# hand-made capture.  Skipped (77) where there is a GPU: gpu_judge.sh runs.
set -u
cl1cc=$(readlink -f "$1")
here=$(cd "$(dirname "$0")" && pwd)
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIPPED: this machine has a GPU; gpu_judge.sh covers the judge here"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_CACHE_DIR="$work/cache" CL1CC_DB="$work/db"
cp "$here/../example/vector_scale.cu" "$work/"
mkdir -p "$work/cap/0"
cat >"$work/cap/0/meta" <<'M'
cl1cc-capture 1
kernel scale_clamp
index 0
grid 1 1 1
block 4 1 1
shmem 0
allocs 2
alloc 0 16
alloc 1 16
args 4
arg 0 pointer 0 0
arg 1 pointer 1 0
arg 2 value 4 0000c03f
arg 3 value 4 04000000
end
M
head -c 16 /dev/zero >"$work/cap/0/alloc0.in"; head -c 16 /dev/zero >"$work/cap/0/alloc0.out"
head -c 16 /dev/zero >"$work/cap/0/alloc1.in"; head -c 16 /dev/zero >"$work/cap/0/alloc1.out"
cd "$work" || exit 1
"$cl1cc" judge vector_scale.cu scale_clamp --captures cap --variant "$here/variants/scale_clamp.correct.cu" \
    --variant "$here/variants/scale_clamp.syntax_error.cu" --variant "$here/variants/scale_clamp.grid_sm.cu" \
    -- -O3 -arch=sm_90 >out.txt 2>err.txt
rc=$?
cat out.txt
fail=0
[ $rc -eq 0 ] || { echo "FAIL: judge exited $rc"; cat err.txt; fail=1; }
grep -q "scale_clamp.correct.cu *not_run" out.txt || { echo "FAIL: the good variant is not 'not_run'"; fail=1; }
grep -q "scale_clamp.syntax_error.cu *build_error" out.txt || { echo "FAIL: the broken variant is not 'build_error'"; fail=1; }
grep -q "scale_clamp.grid_sm.cu *not_run" out.txt ||
    { echo "FAIL: the driver with a grid.x sm variant (one more parameter, its grid sized at run time) did not build"; fail=1; }
grep -q "^no GPU on this machine: built the replay driver and every variant; verifying and timing them was skipped" out.txt ||
    { echo "FAIL: no plain message about what was skipped"; fail=1; }

# a TU whose host code calls a function of another file of the program (as
# eigenvalues' bisect_large.cu calls matlab.cpp's): the driver holds the
# whole TU, never runs that code, and must still link
sed 's/^int main()/void write_results(const float *, int);\
void report(const float *h, int n) { write_results(h, n); }\
int main()/' vector_scale.cu >two_files.cu
"$cl1cc" judge two_files.cu scale_clamp --captures cap --variant "$here/variants/scale_clamp.correct.cu" \
    -- -O3 -arch=sm_90 >out2.txt 2>err2.txt
rc=$?
if [ $rc -eq 0 ] && grep -q "scale_clamp.correct.cu *not_run" out2.txt; then
    echo "ok: the driver of a TU calling another file's host function links"
else
    echo "FAIL: the driver of a TU calling another file's host function (exit $rc)"; cat out2.txt err2.txt; fail=1
fi
[ $fail -eq 0 ] && echo "ok: without a GPU the judge builds everything and says what it skipped"
exit $fail
