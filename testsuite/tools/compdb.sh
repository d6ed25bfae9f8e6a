#!/bin/sh
# compdb.sh CL1CC DB_PUT: -p BUILD for rewrite, ci and tune: the flags that
# key the database come from compile_commands.json (as CMake writes it for
# nvcc: -o, -c and depfile flags are not the key's), each file its own for
# rewrite; ci hands them to the tuner.  And `cl1cc ci` on a machine without
# a GPU: exit 4, one line "nothing was measured: no GPU", the reports say so.
set -u
cl1cc=$(readlink -f "$1") put=$(readlink -f "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_DB="$work/t.db" HOME="$work"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
mkdir -p src/include build
printf '#define FACTOR 2.0f\n' >src/include/f.h
cat >src/k.cu <<'CU'
#include "f.h"
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= FACTOR;
}
CU
sed 's/scale/other/' src/k.cu >src/o.cu
sed 's/\*= FACTOR/= x[i] * FACTOR/' src/k.cu | grep -v include >v.cu
cat >build/compile_commands.json <<JSON
[
{"directory": "$work/build",
 "command": "/usr/local/cuda/bin/nvcc -I../src/include -O3 -arch=sm_90 -MD -MT k.o -MF k.o.d -x cu -c $work/src/k.cu -o CMakeFiles/k.dir/k.cu.o",
 "file": "$work/src/k.cu"},
{"directory": "$work/build",
 "command": "/usr/local/cuda/bin/nvcc -I../src/include -O2 -arch=sm_90 -x cu -c $work/src/o.cu -o o.o",
 "file": "$work/src/o.cu"}
]
JSON
"$put" src/k.cu scale v.cu 1.4 -- -I"$work/src/include" -O3 -arch=sm_90 -x cu >/dev/null || bad "db_put"
"$cl1cc" rewrite --check src/k.cu -- -O3 -arch=sm_90 >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ] || [ $rc -eq 0 ] && ok "without -p the flags are not the build's: no variant ($rc)" || bad "without -p: rc=$rc"
"$cl1cc" rewrite --check -p build src/k.cu src/o.cu >rw.out 2>&1; rc=$?
[ $rc -eq 3 ] && grep -q "kernel scale can be rewritten" rw.out && ok "rewrite -p: the flags from compile_commands.json" || { bad "rewrite -p: rc=$rc"; cat rw.out; }
"$cl1cc" rewrite --check -p nowhere src/k.cu >/dev/null 2>rw2.err; rc=$?
[ $rc -eq 2 ] && grep -q "nowhere: no readable compile_commands.json" rw2.err && ok "rewrite -p: no database there: status 2" || { bad "no compdb: rc=$rc"; cat rw2.err; }
export CL1CC_CI_TUNER="$work/fake_tune.sh"
cat >fake_tune.sh <<'SH'
#!/bin/sh
# a tuner on a machine without a GPU: nothing measured
while [ $# -gt 0 ]; do [ "$1" = --json ] && json=$2; shift; done
printf '{"cl1cc_version": "0.1.0", "arch": "none", "gpu_name": null, "ran_on_gpu": false,\n "kernels": [{"file": "k.cu", "kernel": "scale", "status": "skipped_no_gpu"}]}\n' >"$json"
SH
chmod +x fake_tune.sh
"$cl1cc" ci --dry-run -p build --run ./app src/k.cu >dry.out 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q -- "-- -I$work/build/../src/include -O3 -arch=sm_90 -x cu\$" dry.out && ok "ci -p: the tuner gets the build's flags" || { bad "ci -p --dry-run: rc=$rc"; cat dry.out; }
"$cl1cc" ci --dry-run -p build --run ./app src/k.cu src/o.cu >dry2.out 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "compile with different flags" dry2.out && ok "ci -p: files with different flags: status 2" || { bad "ci -p two flags: rc=$rc"; cat dry2.out; }
"$cl1cc" tune -p build --captures "$work" src/k.cu src/o.cu >tune.out 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "compile with different flags" tune.out && ok "tune -p: reads the build's flags" || { bad "tune -p: rc=$rc"; cat tune.out; }
"$cl1cc" ci --run ./app src/o.cu -- -O3 >ci.out 2>ci.err; rc=$?
if [ $rc -eq 4 ] && [ "$(cat ci.err)" = "cl1cc ci: nothing was measured: no GPU" ] && [ ! -s ci.out ] \
    && grep -q "Nothing was measured: no GPU" cl1cc-ci/report.md && grep -q '"result":.*"nothing_measured"' cl1cc-ci/summary.json; then
    ok "ci without a GPU: status 4, one line, the reports say so"; else bad "ci without a GPU: rc=$rc"; cat ci.out ci.err; fi
exit $fail
