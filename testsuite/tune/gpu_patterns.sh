#!/bin/sh
# gpu_patterns.sh CL1CC PATTERNS-DIR: the atomic_warp, interchange and
# spread transforms on the GPU (GPU only).  Tunes testsuite/bench/patterns'
# programs: the naive atomic sum and histogram must improve with a variant
# that has atomic_warp, the count must not get slower, the transposed
# kernels must improve with interchange, the row sweep with spread; then
# the nvcc wrapper applies what was found and each program prints what the
# plain nvcc build prints.  Skipped (77), with a line saying so, without a
# GPU.  GPU_PATTERNS_OUT=DIR keeps the tune JSON summaries there;
# GPU_PATTERNS_ONLY="sweep ..." runs only those programs.
set -u
cl1cc=$(readlink -f "$1") patterns=$(readlink -f "$2")
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIPPED: no GPU on this machine: tuning the pattern programs needs one"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_CACHE_DIR="$work/cache" CL1CC_DB="$work/db/tuning.db"
flags="-O3 -arch=sm_90"
fail=0
# NAME:TRANSFORM: improved with a variant that has it; NAME:-: not slower
# (nvcc aggregates count_above's atomics itself: same value, same address)
for case in "atomics count_above:- sum_values:atomic_warp histogram:atomic_warp" \
            "transposed scale_rows:interchange smooth_rows:interchange" "sweep sweep_rows:spread"; do
    set -- $case
    prog=$1
    shift
    case " ${GPU_PATTERNS_ONLY:-$prog} " in *" $prog "*) ;; *) continue ;; esac
    cp "$patterns/$prog/$prog.cu" "$work/"
    (cd "$work" && nvcc $flags -o "$prog.plain" "$prog.cu" && "./$prog.plain" >"$prog.plain.txt") ||
        { echo "FAIL: $prog: plain build"; fail=1; continue; }
    # shellcheck disable=SC2086
    (cd "$work" && "$cl1cc" tune --build "nvcc $flags -o $prog.exe $prog.cu" --run "./$prog.exe" \
        --json "$prog.json" --kernel-evals 8 "$prog.cu" -- $flags) >"$work/$prog.out" 2>&1 ||
        { echo "FAIL: $prog: tune exited $?"; tail -n 20 "$work/$prog.out"; fail=1; continue; }
    tail -n 8 "$work/$prog.out"
    [ -n "${GPU_PATTERNS_OUT:-}" ] && mkdir -p "$GPU_PATTERNS_OUT" && cp "$work/$prog.json" "$GPU_PATTERNS_OUT/"
    python3 - "$work/$prog.json" "$@" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
kernels = {k["kernel"]: k for k in d["kernels"]}
assert d["ran_on_gpu"] is True
bad = 0
for want in sys.argv[2:]:
    name, transform = want.split(":")
    k = kernels[name]
    if transform == "-" and k["status"] in ("improved", "no_gain") and k["speedup"] >= 1.0:
        print("ok: %s not slower (%s, %.2fx)" % (name, k["status"], k["speedup"]))
    elif k["status"] == "improved" and k["speedup"] > 1.0 and transform in (k["best_label"] or ""):
        print("ok: %s improved %.2fx with %s" % (name, k["speedup"], k["best_label"]))
    else:
        print("FAIL: %s: %s %s %s" % (name, k["status"], k.get("speedup"), k.get("best_label")))
        bad = 1
sys.exit(bad)
PY
    (cd "$work" && CL1CC_VERBOSE=1 "$cl1cc" $flags -o "$prog.tuned" "$prog.cu" 2>"$prog.wrap.txt" &&
        "./$prog.tuned" >"$prog.tuned.txt") || { echo "FAIL: $prog: tuned build"; fail=1; continue; }
    grep -q "verified variant" "$work/$prog.wrap.txt" ||
        { echo "FAIL: $prog: the wrapper applied nothing"; cat "$work/$prog.wrap.txt"; fail=1; }
    cmp -s "$work/$prog.plain.txt" "$work/$prog.tuned.txt" ||
        { echo "FAIL: $prog: the tuned program prints something else"; cat "$work/$prog.plain.txt" "$work/$prog.tuned.txt"; fail=1; }
done
[ $fail -eq 0 ] && echo "ok: atomic_warp, interchange and spread verified, faster, and applied by the wrapper"
exit $fail
