#!/bin/sh
# gpu_tune.sh CL1CC: the whole loop on a real program (GPU only): tune
# captures row_sums' launch, finds and verifies a faster variant, records
# it; the nvcc wrapper then applies it and the program prints the same
# result.  Skipped (77), with a line saying so, without a GPU.
set -u
cl1cc=$(readlink -f "$1")
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIPPED: no GPU on this machine: the tune loop needs one (tune_without_gpu runs instead)"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_CACHE_DIR="$work/cache" CL1CC_DB="$work/db/tuning.db"
cp "$here/row_sums.cu" "$work/"
cd "$work" || exit 1
nvcc -O3 -arch=sm_90 -o plain row_sums.cu && ./plain 1024 >plain.txt || { echo "FAIL: plain build"; exit 1; }
"$cl1cc" tune --build "nvcc -O3 -arch=sm_90 -o rs row_sums.cu" --run "./rs 1024" \
    --json tune.json --kernel-evals 8 row_sums.cu -- -O3 -arch=sm_90 >out.txt 2>err.txt
rc=$?
cat out.txt
fail=0
[ $rc -eq 0 ] || { echo "FAIL: tune exited $rc"; cat err.txt; fail=1; }
python3 - tune.json <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
k = {k["kernel"]: k for k in d["kernels"]}["row_sums"]
assert d["ran_on_gpu"] is True
assert k["status"] == "improved" and k["speedup"] > 1.0, k
assert k["variants_passed"] >= 1
print("ok: row_sums improved %.2fx with %s" % (k["speedup"], k["best_label"]))
PY
CL1CC_VERBOSE=1 "$cl1cc" -O3 -arch=sm_90 -o tuned row_sums.cu 2>wrap.txt
grep -q "kernel row_sums: verified variant" wrap.txt || { echo "FAIL: the wrapper did not apply it"; cat wrap.txt; fail=1; }
./tuned 1024 >tuned.txt
cmp -s plain.txt tuned.txt || { echo "FAIL: the tuned program prints something else"; cat plain.txt tuned.txt; fail=1; }
[ $fail -eq 0 ] && echo "ok: tune found, verified and recorded a faster variant; the wrapper applied it"
exit $fail
