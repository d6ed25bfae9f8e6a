#!/bin/sh
# ci.sh CL1CC RWC_PUT HERE: `cl1cc ci` in a git work tree: the files changed
# since the base (a header brings the .cu files that include it), the tuner
# run as a child with the documented command line (a stand-in tuner here,
# through CL1CC_CI_TUNER, that records a winner in the database as the real
# one does), the reports, $GITHUB_STEP_SUMMARY, the patch (git apply takes
# it) and the exit status: 0 nothing to do, 3 improvements, 1 errors, 2 usage.
set -u
cl1cc=$(readlink -f "$1") put=$(readlink -f "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_DB="$work/tuning.db" SOURCE_DATE_EPOCH=1735689600
flags="-O3 -arch=sm_90"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
g() { git -c user.email=t@example.com -c user.name=t "$@"; }

# the stand-in tuner: writes its arguments, puts a winner for `scale` in
# every file into the database, and writes the tune JSON
cat >fake_tune.sh <<'SH'
#!/bin/sh
[ "$1" = tune ] || exit 9
shift
printf '%s\n' "$@" >"$FAKE_ARGS"
[ "${FAKE_TUNE_FAIL:-0}" = 1 ] && { echo "fake tuner: failing" >&2; exit 1; }
json="" files="" flags=""
while [ $# -gt 0 ]; do
    case $1 in
    --run|--build|--budget-seconds) shift 2 ;;
    --json) json=$2; shift 2 ;;
    --) shift; flags="$*"; break ;;
    *) files="$files $1"; shift ;;
    esac
done
{
    printf '{"cl1cc_version": "0.1.0", "arch": "sm_90", "gpu_name": "NVIDIA H200", "ran_on_gpu": true,\n'
    printf ' "budget": {"seconds": 600, "evaluations": 64}, "wall_seconds": 12.5, "extra": {"x": 1},\n "kernels": ['
    sep=""
    for f in $files; do
        if grep -q 'void scale' "$f"; then
            "$FAKE_PUT" "$f" scale "$FAKE_VARIANT" 2.5 --gpu "NVIDIA H200" -- $flags >/dev/null || exit 1
            printf '%s\n  {"file": "%s", "kernel": "scale", "key": "%064d", "status": "improved", "baseline_ms": 1.0, "best_ms": 0.4, "speedup": 2.5, "best_label": "x+x", "variants_tried": 3, "variants_passed": 2, "tune_seconds": 4.0, "detail": "faster"}' "$sep" "$f" 0
        else
            printf '%s\n  {"file": "%s", "kernel": "other", "status": "no_gain", "baseline_ms": 0.5, "best_ms": 0.5, "speedup": 1.0}' "$sep" "$f"
        fi
        sep=","
    done
    printf '\n]}\n'
} >"$json"
SH
chmod +x fake_tune.sh
cat >variant.cu <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] + x[i];
}
CU
export CL1CC_CI_TUNER="$work/fake_tune.sh" FAKE_ARGS="$work/tune.args" FAKE_PUT="$put" FAKE_VARIANT="$work/variant.cu"

mkdir repo && cd repo || exit 1
cat >k.cu <<'CU'
// k.cu
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}
CU
printf '#define WIDTH 4\n' >lib.cuh
printf '#include "lib.cuh"\n__global__ void other(int *p) { p[0] = WIDTH; }\n' >uses.cu
printf '__global__ void alone(int *p) { p[0] = 1; }\n' >untouched.cu
g init -q -b main . && g add . && g commit -qm base || { bad "git"; exit 1; }
g checkout -q -b feature
printf '// a change\n' >>k.cu
printf '#define HEIGHT 2\n' >>lib.cuh
g commit -qam change

# 1. what changed: k.cu, and uses.cu through lib.cuh; not untouched.cu
"$cl1cc" ci --dry-run --base main --run ./app --build make -- $flags >dry.out 2>dry.err; rc=$?
want="$CL1CC_CI_TUNER tune --run ./app --build make --budget-seconds 600 --json cl1cc-ci/tune.json $work/repo/k.cu $work/repo/uses.cu -- -O3 -arch=sm_90"
if [ $rc -eq 0 ] && [ "$(cat dry.out)" = "$want" ]; then ok "--dry-run --base main: $(cat dry.out)"; else bad "--dry-run: rc=$rc"; cat dry.out dry.err; fi
"$cl1cc" ci --dry-run --run ./app --budget-seconds 30 -- $flags >dry2.out 2>&1; rc=$?
grep -q -- "--budget-seconds 30 --json cl1cc-ci/tune.json $work/repo/k.cu $work/repo/uses.cu --" dry2.out && [ $rc -eq 0 ] \
    && ok "no origin/main: the base is HEAD~1" || { bad "default base: rc=$rc"; cat dry2.out; }
"$cl1cc" ci --dry-run --run ./app untouched.cu -- $flags >dry3.out 2>&1
grep -q "json cl1cc-ci/tune.json $work/repo/untouched.cu -- " dry3.out && ok "explicit FILES are what is tuned" || { bad "explicit FILES"; cat dry3.out; }
[ ! -e cl1cc-ci/report.md ] && ok "--dry-run writes no report" || bad "--dry-run wrote reports"

# 2. a tuning run with an improvement: exit 3, reports, step summary, patch
export GITHUB_STEP_SUMMARY="$work/step_summary.md"
"$cl1cc" ci --base main --run ./app -- $flags >ci.out 2>ci.err; rc=$?
if [ $rc -eq 3 ]; then ok "improvements: status 3: $(cat ci.out)"; else bad "improvements: status $rc"; cat ci.out ci.err; fi
for f in report.md report.html summary.json tune.json cl1cc.patch; do
    [ -s "cl1cc-ci/$f" ] || bad "cl1cc-ci/$f missing"
done
grep -q '^| `scale` | `k.cu` | improved | 1.0000 | 0.4000 | \*\*2.50×\*\* | x+x | 2 / 3 |$' cl1cc-ci/report.md && ok "report.md: the kernel's row" || { bad "report.md"; cat cl1cc-ci/report.md; }
grep -q 'The patch `cl1cc-ci/cl1cc.patch` rewrites 1 kernel in 1 file' cl1cc-ci/report.md && ok "report.md: the patch's line" || bad "report.md: no patch line"
python3 - cl1cc-ci/summary.json <<'PY' && ok "summary.json: result, counts, patch" || bad "summary.json"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["result"] == "improvements" and s["exit_code"] == 3, s
assert s["counts"]["improved"] == 1 and s["counts"]["no_gain"] == 1, s["counts"]
assert s["patch"]["kernels"] == [{"file": "k.cu", "kernel": "scale", "arch": "sm_90", "speedup": 2.5}], s["patch"]
assert s["base_ref"] == "main" and s["gpu_name"] == "NVIDIA H200"
assert [k["in_patch"] for k in s["kernels"]] == [True, False]
PY
cmp -s "$GITHUB_STEP_SUMMARY" cl1cc-ci/report.md && ok "GITHUB_STEP_SUMMARY holds the Markdown report" || bad "GITHUB_STEP_SUMMARY"
grep -q "^--run$" "$FAKE_ARGS" && grep -q "^--json$" "$FAKE_ARGS" && ok "the tuner got --run and --json" || bad "tuner arguments: $(cat "$FAKE_ARGS")"
git apply --check cl1cc-ci/cl1cc.patch && ok "git apply --check takes cl1cc.patch" || bad "git apply --check cl1cc.patch"
"$cl1cc" rewrite --patch k.cu uses.cu -- $flags >same.patch 2>/dev/null
cmp -s same.patch cl1cc-ci/cl1cc.patch && ok "ci's patch is rewrite --patch's" || bad "ci's patch differs from rewrite --patch"
g diff --quiet HEAD -- k.cu && ok "ci changed no source file" || bad "ci changed k.cu"
"$cl1cc" ci --base main --run ./app -- $flags >/dev/null 2>&1
[ "$(grep -c '^## cl1cc optimization report' "$GITHUB_STEP_SUMMARY")" = 2 ] && ok "GITHUB_STEP_SUMMARY is appended to" || bad "step summary not appended"

# 3. from an earlier run's JSON: the same reports without tuning
cp cl1cc-ci/tune.json earlier.json
rm -f "$FAKE_ARGS"
"$cl1cc" ci --from-json earlier.json --out again -- $flags >/dev/null 2>&1; rc=$?
[ $rc -eq 3 ] && [ ! -e "$FAKE_ARGS" ] && cmp -s again/cl1cc.patch cl1cc-ci/cl1cc.patch && ok "--from-json: status 3, same patch, no tuner run" || bad "--from-json: rc=$rc"

# 4. nothing changed: status 0, no patch
"$cl1cc" ci --base HEAD --run ./app -- $flags >none.out 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "nothing to tune" cl1cc-ci/report.md && [ ! -e cl1cc-ci/cl1cc.patch ] \
    && ok "nothing changed: status 0, no patch" || { bad "nothing changed: rc=$rc"; cat none.out; }

# 5. the tuner fails: status 1, reports say so
FAKE_TUNE_FAIL=1 "$cl1cc" ci --base main --run ./app -- $flags >fail.out 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "the tuner failed (status 1)" cl1cc-ci/report.md && grep -q '"result":.*"error"' cl1cc-ci/summary.json \
    && ok "the tuner fails: status 1, the reports say why" || { bad "failing tuner: rc=$rc"; cat fail.out; }

# 6. --from-json: no improvement, nothing in the database, damaged JSON
cat >plain.json <<JSON
{"arch": "sm_90", "kernels": [{"file": "$work/repo/k.cu", "kernel": "scale", "status": "no_gain", "speedup": 1.0}]}
JSON
CL1CC_DB="$work/empty.db" "$cl1cc" ci --from-json plain.json --out o6 -- $flags >/dev/null 2>&1; rc=$?
[ $rc -eq 0 ] && [ ! -e o6/cl1cc.patch ] && ok "--from-json without improvement: status 0" || bad "--from-json no gain: rc=$rc"
CL1CC_DB="$work/empty.db" "$cl1cc" ci --from-json earlier.json --out o7 -- $flags >/dev/null 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "kernel scale: the tuner reports x2.50, but no verified variant applies" o7/report.md \
    && ok "a winner the database does not hold is named in the notes" || bad "missing winner: rc=$rc"
printf '{"kernels": [\n' >bad.json
"$cl1cc" ci --from-json bad.json --out o8 -- $flags >/dev/null 2>o8.err; rc=$?
[ $rc -eq 1 ] && grep -q "bad.json: line 2: not valid JSON" o8.err && [ -s o8/report.md ] && ok "damaged JSON: status 1, reports written" || { bad "damaged JSON: rc=$rc"; cat o8.err; }

# 7. usage
"$cl1cc" ci --base main -- $flags >/dev/null 2>u1; rc=$?
[ $rc -eq 2 ] && grep -q -- "--run CMD is needed" u1 && ok "no --run: status 2" || bad "no --run: rc=$rc"
"$cl1cc" ci --base main --run x k.cu >/dev/null 2>u2; rc=$?
[ $rc -eq 2 ] && ok "--base and FILES: status 2" || bad "--base and FILES: rc=$rc"
"$cl1cc" ci --run x --budget-seconds -3 >/dev/null 2>u3; rc=$?
[ $rc -eq 2 ] && ok "a bad budget: status 2" || bad "bad budget: rc=$rc"
exit $fail
