#!/bin/sh
# nogpu_tune.sh CL1CC: without a GPU, `cl1cc tune` on a hand-made capture
# proposes and builds the first round of variants, says plainly that it
# skipped verifying and timing and what it did (kernels read, launches
# captured, variants proposed and compiled), records nothing, and writes its
# JSON summary; a captured launch under 10 us is called launch-bound.  Skipped (77) where there is a GPU: gpu_tune.sh runs there.
set -u
cl1cc=$(readlink -f "$1")
here=$(cd "$(dirname "$0")" && pwd)
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIPPED: this machine has a GPU; gpu_tune.sh covers tune here"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_CACHE_DIR="$work/cache" CL1CC_DB="$work/db/tuning.db"
cp "$here/row_sums.cu" "$work/"
. "$here/fake_capture.sh"
fake_capture "$work/row_sums.cu" "$work/cap"
cd "$work" || exit 1
"$cl1cc" tune --captures cap --json out.json row_sums.cu -- -O3 >out.txt 2>err.txt
rc=$?
cat out.txt
fail=0
[ $rc -eq 0 ] || { echo "FAIL: tune exited $rc"; cat err.txt; fail=1; }
grep -q "^tune: no GPU on this machine" out.txt || { echo "FAIL: no plain message about the skipped GPU work"; fail=1; }
grep -q "row_sums *skipped_no_gpu" out.txt || { echo "FAIL: row_sums is not skipped_no_gpu"; fail=1; }
grep -q "never_launched *not_captured" out.txt || { echo "FAIL: never_launched is not not_captured"; fail=1; }
[ -e "$CL1CC_DB" ] && { echo "FAIL: a database was written without measurements"; fail=1; }
python3 - out.json <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
ks = {k["kernel"]: k for k in d["kernels"]}
assert d["ran_on_gpu"] is False, d
assert ks["row_sums"]["status"] == "skipped_no_gpu", ks
assert ks["row_sums"]["variants_tried"] >= 3, ks   # regacc, restrict, unroll...
assert len(ks["row_sums"]["key"]) == 64
assert ks["never_launched"]["status"] == "not_captured"
print("ok: JSON summary")
PY
# the catalogue's variants of row_sums all compile
grep -q "(0 did not compile)" out.txt || { echo "FAIL: some variant did not compile"; fail=1; }
# what it did, in numbers: the variants it built and no more
grep -q "^no GPU: 2 kernel(s) read, launches captured: 1 (of 1 kernel(s)), variants proposed: 6, compiled: 6 (0 did not compile); nothing was verified or timed" out.txt ||
    { echo "FAIL: no summary of what tune did without a GPU"; fail=1; }
grep -q "launch-bound" out.txt && { echo "FAIL: a 50 us launch called launch-bound"; fail=1; }
# a captured launch of 4 us: launch-bound, one line
rm -rf cap && fake_capture "$work/row_sums.cu" "$work/cap" 0.004
"$cl1cc" tune --captures cap --kernel row_sums row_sums.cu -- -O3 >short.txt 2>short.err ||
    { echo "FAIL: tune on a launch-bound kernel"; cat short.err; fail=1; }
[ "$(grep -c "^tune: row_sums.cu-[0-9a-f]* row_sums: its captured launch took 0.004 ms (under 10 us): launch-bound: timing will say little" short.txt)" = 1 ] ||
    { echo "FAIL: no launch-bound warning for a 4 us launch"; cat short.txt; fail=1; }
# a long kernel (its captured launch took 250 ms) gets a first round of 3
rm -rf cap && fake_capture "$work/row_sums.cu" "$work/cap" 250.0
"$cl1cc" tune --captures cap --json long.json row_sums.cu -- -O3 >long.txt 2>long.err ||
    { echo "FAIL: tune on a long kernel"; cat long.err; fail=1; }
python3 - out.json long.json <<'PY' || fail=1
import json, sys
short, long_ = ({k["kernel"]: k for k in json.load(open(p))["kernels"]}["row_sums"] for p in sys.argv[1:])
assert short["variants_tried"] > 3, short
assert long_["variants_tried"] == 3, long_
print("ok: a long kernel's first round is 3 proposals (%d for a short one)" % short["variants_tried"])
PY
# so does a kernel whose capture holds 2 GiB (each check run reads and
# writes it: seconds), however short its launch
rm -rf cap && fake_capture "$work/row_sums.cu" "$work/cap" 0.050 2147483648
"$cl1cc" tune --captures cap --json large.json row_sums.cu -- -O3 >large.txt 2>large.err ||
    { echo "FAIL: tune on a large capture"; cat large.err; fail=1; }
python3 - large.json <<'PY' || fail=1
import json, sys
k = {k["kernel"]: k for k in json.load(open(sys.argv[1]))["kernels"]}["row_sums"]
assert k["variants_tried"] == 3, k
print("ok: a 2-GiB capture's first round is 3 proposals")
PY
[ $fail -eq 0 ] && echo "ok: without a GPU tune builds the first round and says what it skipped"
exit $fail
