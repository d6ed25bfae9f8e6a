#!/bin/sh
# build_copy.sh CL1CC: `cl1cc tune --build make --run ./app` on a tiny make
# project in a git repository, its binary already built (make: up to date).
# The build and the run happen in a private copy: the user's tree is left as
# it was (git status, the files' times, the old binary) and the copy is gone
# afterwards; the up-to-date build still compiles the file through cl1cc.
# Each kernel not captured says why (in the table, on its own line, and as
# `not_captured` in the JSON): a launch pasted by a macro, a kernel with no
# launch, and, with a Makefile naming nvcc by its full path, `not built
# through cl1cc`; nothing captured at all exits 3.  Without a GPU the run
# cannot capture: tune says so for the launched kernel and reports what it
# did (kernels read, launches captured: none, no variant).  A run that
# leaves a capture in the copy (fake_capture.sh: a 4 us launch) is found
# under the user's file, launch-bound, and its variants are built.
set -u
cl1cc=$(readlink -f "$1")
here=$(cd "$(dirname "$0")" && pwd)
command -v nvcc >/dev/null 2>&1 || { echo "SKIPPED: no nvcc"; exit 77; }
have_gpu=0
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && have_gpu=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_CACHE_DIR="$work/cache" CL1CC_DB="$work/db/tuning.db"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

mkdir "$work/proj" && cd "$work/proj" || exit 1
cat >k.cu <<'EOF'
#include <cstdio>
#define LAUNCH_PASTED(stem, p) stem##_all<<<1, 32>>>(p)
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}
__global__ void bump_all(float *x) { x[threadIdx.x] += 1.0f; }
__global__ void never_launched(float *x) { x[threadIdx.x] = 1.0f; }
int main()
{
    float *x = 0;
    cudaMalloc(&x, 256 * sizeof(float));
    scale<<<2, 128>>>(x, 256);
    LAUNCH_PASTED(bump, x);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
EOF
printf 'app: k.cu\n\tnvcc -O3 -o app k.cu\n' >Makefile
printf 'app: k.cu\n\t%s -O3 -o app k.cu\n' "$(command -v nvcc)" >Makefile.full
printf 'app\n' >.gitignore
git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm fixture || exit 1
make -s >/dev/null || { echo "FAIL: the fixture does not build"; exit 1; }
make -q || bad "make is not up to date before tune"
app_sum=$(cksum <app)
git status --porcelain --ignored >"$work/status.before"
sleep 1
touch "$work/stamp"

"$cl1cc" tune --build make --run "./app; true" --json "$work/out.json" k.cu -- -O3 \
    >"$work/out.txt" 2>"$work/err.txt"
rc=$?
cat "$work/out.txt"
# the user's tree as it was
git status --porcelain --ignored >"$work/status.after"
cmp -s "$work/status.before" "$work/status.after" ||
    { bad "git status changed"; diff "$work/status.before" "$work/status.after"; }
[ "$(cksum <app)" = "$app_sum" ] || bad "the user's binary was replaced"
[ -z "$(find . -newer "$work/stamp" -not -path './.git*' -print)" ] ||
    { bad "files in the user's tree changed:"; find . -newer "$work/stamp" -not -path './.git*'; }
grep -q "^capture: building in a copy of $work/proj " "$work/out.txt" || bad "no line about the private copy"
[ -z "$(ls -A "$CL1CC_CACHE_DIR/builds" 2>/dev/null)" ] || bad "the private copy was left behind"
# the up-to-date build compiled k.cu (in the copy) through cl1cc
grep -q "^nvcc -O3 -o app k.cu" "$work/out.txt" || bad "make rebuilt nothing in the copy"
grep -q "not built through cl1cc" "$work/out.txt" "$work/err.txt" && bad "an up-to-date make instrumented nothing"
grep -q "^tune: k.cu-[0-9a-f]* bump_all: not captured: launched from a macro that uses # or ##" "$work/out.txt" ||
    bad "no reason for bump_all"
grep -q "^tune: k.cu-[0-9a-f]* never_launched: not captured: never launched" "$work/out.txt" ||
    bad "no reason for never_launched"
grep -q "never_launched *not_captured .*never launched" "$work/out.txt" || bad "the table has no reason"
if [ $have_gpu = 0 ]; then
    grep -q "^tune: k.cu-[0-9a-f]* scale: not captured: launched, but no GPU here to capture it on" \
        "$work/out.txt" || bad "no reason for scale"
    grep -q "^no GPU: 3 kernel(s) read, launches captured: none, variants proposed and compiled: none; nothing was verified" \
        "$work/out.txt" || bad "no summary of what tune did without a GPU"
    grep -q "variant(s)" "$work/out.txt" && bad "tune speaks of variants it did not build"
    [ $rc -eq 3 ] || { bad "tune exited $rc when nothing was captured (want 3)"; cat "$work/err.txt"; }
    python3 - "$work/out.json" <<'PY' || fail=1
import json, sys
ks = {k["kernel"]: k for k in json.load(open(sys.argv[1]))["kernels"]}
assert all(k["status"] == "not_captured" for k in ks.values()), ks
assert ks["scale"]["not_captured"] == "launched, but no GPU here to capture it on", ks["scale"]
assert ks["bump_all"]["not_captured"].startswith("launched from a macro"), ks["bump_all"]
assert ks["never_launched"]["not_captured"].startswith("never launched"), ks["never_launched"]
print("ok: each kernel's not_captured reason in the JSON")
run = json.load(open(sys.argv[1]))
assert run["capture_build_seconds"] > 0 and run["capture_run_seconds"] >= 0, run
assert run["capture_seconds"] >= run["capture_build_seconds"] + run["capture_run_seconds"], run
print("ok: the capture's build and run seconds apart in the JSON")
PY
fi

# a Makefile that names nvcc by its full path goes around cl1cc: said so
"$cl1cc" tune --build "make -f Makefile.full" --run "./app; true" --json "$work/full.json" k.cu -- -O3 \
    >"$work/full.txt" 2>"$work/full.err"
rc=$?
[ $rc -eq 3 ] || bad "tune exited $rc when the build went around cl1cc (want 3)"
[ "$(grep -c "^tune: k.cu-[0-9a-f]* [a-z_]*: not captured: not built through cl1cc$" "$work/full.txt")" = 3 ] ||
    { bad "not every kernel is 'not built through cl1cc'"; cat "$work/full.txt"; }
grep -q "k.cu: not built through cl1cc: --build did not compile it with the nvcc on PATH" "$work/full.err" ||
    { bad "the capture does not say the build went around it"; cat "$work/full.err"; }
python3 - "$work/full.json" <<'PY' || fail=1
import json, sys
ks = json.load(open(sys.argv[1]))["kernels"]
assert [k["not_captured"] for k in ks] == ["not built through cl1cc"] * 3, ks
PY
git status --porcelain --ignored >"$work/status.after2"
cmp -s "$work/status.before" "$work/status.after2" || bad "git status changed (full path)"
[ "$(cksum <app)" = "$app_sum" ] || bad "the user's binary was replaced (full path)"

# what the run captures in the copy is found under the user's file: a run
# that writes the capture a 4 us launch of row_sums would leave (in the
# copy, under the copy's tag) gives a captured kernel, launch-bound
mkdir "$work/proj2" && cd "$work/proj2" || exit 1
cp "$here/row_sums.cu" .
printf 'rs: row_sums.cu\n\tnvcc -O3 -o rs row_sums.cu\n' >Makefile
touch "$work/stamp2"
"$cl1cc" tune --build make --run ". '$here/fake_capture.sh' && fake_capture row_sums.cu \"\$CL1CC_CAPTURE_DIR\" 0.004" \
    --kernel row_sums --json "$work/fake.json" row_sums.cu -- -O3 >"$work/fake.txt" 2>"$work/fake.err"
rc=$?
cat "$work/fake.txt"
[ $rc -eq 0 ] || { bad "tune exited $rc on a captured kernel"; cat "$work/fake.err"; }
[ -z "$(find . -newer "$work/stamp2" -print)" ] || { bad "the tree changed:"; find . -newer "$work/stamp2"; }
grep -q "^tune: row_sums.cu-[0-9a-f]* row_sums: its captured launch took 0.004 ms (under 10 us): launch-bound" \
    "$work/fake.txt" || bad "no launch-bound warning"
grep -q "not captured" "$work/fake.txt" && bad "the capture made in the copy was not found"
if [ $have_gpu = 0 ]; then
    grep -q "^no GPU: 1 kernel(s) read, launches captured: 1 (of 1 kernel(s)), variants proposed: [1-9][0-9]*, compiled: [1-9]" \
        "$work/fake.txt" || bad "no summary of the variants built without a GPU"
fi

[ $fail -eq 0 ] && echo "ok: tune --build leaves the tree as it was and says why each kernel was not captured"
exit $fail
