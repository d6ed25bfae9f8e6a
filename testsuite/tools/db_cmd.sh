#!/bin/sh
# db_cmd.sh CL1CC DB_PUT: `cl1cc db`: stats and list count what db_put
# recorded, show gives the provenance, export -> import into a new database
# -> export is byte for byte the same (and importing twice adds nothing),
# two databases merge (import of .db files, --replace), the wrapper's log
# of applications shows in stats, rm takes variants and kernels out, and
# the stamp changes with what can apply.
set -u
cl1cc=$(readlink -f "$1") put=$(readlink -f "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_DB="$work/a.db" HOME="$work" CL1CC_CACHE_DIR="$work/cache"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
cat >k.cu <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}
__global__ void shift(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] += 1.0f; }
void go(float *x, int n) { scale<<<1, 128>>>(x, n); shift<<<1, 128>>>(x, n); }
CU
sed 's/\*= 2.0f/= x[i] + x[i]/; /shift/d; /go(/d' k.cu >v_scale.cu
printf '__global__ void shift(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] = x[i] + 1.0f; }\n' >v_shift.cu
"$cl1cc" db stats >s0.out 2>&1 && grep -q "(none yet)" s0.out && ok "stats without a database" || { bad "stats, no db"; cat s0.out; }
"$put" k.cu scale v_scale.cu 1.6 --gpu "NVIDIA H100" -- -O3 -arch=sm_90 >/dev/null || bad "db_put scale"
"$put" k.cu shift v_shift.cu 0.9 -- -O3 -arch=sm_90 >/dev/null || bad "db_put shift"
stamp1=$("$cl1cc" --cl1-db-stamp)
"$cl1cc" db stats >s1.out || bad "stats status"
grep -q "^kernels: 2" s1.out && grep -q "variants: 2 (2 verified, 1 applicable" s1.out && grep -q "applicable on sm_90 1" s1.out \
    && ok "stats: 2 kernels, 2 variants, 1 applicable on sm_90" || { bad "stats"; cat s1.out; }
"$cl1cc" db list >l1.out && [ "$(wc -l <l1.out)" = 3 ] && grep -q "x1.60.*scale" l1.out && ok "list: one line per variant" || { bad "list"; cat l1.out; }
[ "$("$cl1cc" db list --applicable | wc -l)" = 2 ] && ok "list --applicable" || bad "list --applicable"
id=$(awk '/scale$/{print $1}' l1.out)
"$cl1cc" db show "$id" >show.out && grep -q "^GPU  *NVIDIA H100" show.out && grep -q "^file  *k.cu" show.out \
    && grep -q "x\[i\] = x\[i\] + x\[i\]" show.out && ok "show: provenance and source" || { bad "show"; cat show.out; }
"$cl1cc" db show 999 >/dev/null 2>&1 && bad "show of a missing id succeeded" || ok "show of a missing id: status 1"
# the wrapper logs what it applies
"$cl1cc" -c -O3 -arch=sm_90 k.cu -o k.o 2>wrap.err || { bad "wrapper"; cat wrap.err; }
"$cl1cc" db stats >s2.out && grep -q "applied in builds: 1 logged" s2.out && grep -q "sm_90	x1.60	$id	.*	scale	k.cu" s2.out \
    && ok "stats: the wrapper's application is logged" || { bad "applied log"; cat s2.out; }
# export, import into a new database, export again: the same bytes
"$cl1cc" db export a.json || bad "export"
python3 -c 'import json,sys; d=json.load(open("a.json")); assert len(d["kernels"]) == 2 and d["key_format"] == 1' \
    && ok "export: readable JSON" || bad "export JSON"
CL1CC_DB="$work/b.db" "$cl1cc" db import a.json >i1.out || bad "import"
CL1CC_DB="$work/b.db" "$cl1cc" db import a.json >i2.out || bad "import twice"
CL1CC_DB="$work/b.db" "$cl1cc" db export b.json || bad "export b"
cmp -s a.json b.json && ok "export -> import -> export: identical" || { bad "round trip differs"; diff a.json b.json | head; }
grep -q "0 variant(s) and 0 evaluation(s) added, 2 variant(s) already there" i2.out && ok "importing twice adds nothing" || { bad "import twice"; cat i2.out; }
[ "$(CL1CC_DB="$work/b.db" "$cl1cc" --cl1-db-stamp | tail -n 1)" != "" ] && ok "stamp of the imported database" || bad "stamp b"
CL1CC_DB="$work/b.db" "$cl1cc" rewrite --check k.cu -- -O3 -arch=sm_90 2>rw.err; rc=$?
[ $rc -eq 3 ] && ok "the imported variant applies (rewrite --check: 3)" || { bad "imported variant: rc=$rc"; cat rw.err; }
# merge: a third database with another variant, imported as a .db file
CL1CC_DB="$work/c.db" "$put" k.cu shift v_shift.cu 1.3 -- -O3 -arch=sm_90 >/dev/null || bad "db_put c"
CL1CC_DB="$work/m.db" "$cl1cc" db import a.db c.db >m.out || { bad "merge"; cat m.out; }
[ "$(CL1CC_DB="$work/m.db" "$cl1cc" db list | wc -l)" = 4 ] && ok "merge of two .db files: 3 variants" || bad "merge count"
CL1CC_DB="$work/r.db" "$cl1cc" db import --replace a.db c.db >/dev/null || bad "merge --replace"
[ "$(CL1CC_DB="$work/r.db" "$cl1cc" db list | wc -l)" = 3 ] && ok "--replace: the later file's kernel wins (2 variants)" || bad "--replace count"
echo '{"kernels": []}' >bad.json
"$cl1cc" db import bad.json >/dev/null 2>bad.err && bad "a foreign JSON imported" || { grep -q "not an export" bad.err && ok "a foreign JSON is refused"; }
# rm changes the stamp; --kernel takes a whole kernel out
"$cl1cc" db rm "$id" >/dev/null || bad "rm"
[ "$("$cl1cc" --cl1-db-stamp)" != "$stamp1" ] && ok "rm changes the stamp" || bad "stamp after rm"
"$cl1cc" db rm --kernel shift >rmk.out && [ "$("$cl1cc" db list | wc -l)" = 1 ] && ok "rm --kernel" || { bad "rm --kernel"; cat rmk.out; }
# caches: trim and clean
mkdir -p "$work/captures/f1/k0" "$work/captures/f1/k1" "$work/cache/pch"
head -c 2000000 /dev/zero >"$work/captures/f1/k0/data"; touch -d '2 days ago' "$work/captures/f1/k0/data" "$work/captures/f1/k0"
head -c 2000000 /dev/zero >"$work/captures/f1/k1/data"
"$cl1cc" db trim --captures-mb 1 --pch-mb 256 >trim.out && [ ! -e "$work/captures/f1/k0" ] && [ ! -e "$work/captures/f1/k1" ] \
    && ok "trim: the captures fit their cap" || { bad "trim"; cat trim.out; }
head -c 100 /dev/zero >"$work/cache/pch/x.pch"
"$cl1cc" db clean --pch >/dev/null && [ ! -e "$work/cache/pch" ] && ok "clean --pch" || bad "clean --pch"
"$cl1cc" db frobnicate >/dev/null 2>&1; [ $? -eq 2 ] && ok "unknown action: status 2" || bad "unknown action"
exit $fail
