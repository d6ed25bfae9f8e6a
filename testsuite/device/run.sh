#!/bin/sh
# run.sh: everything this session checks on the GPU machine, in one call.
# Carry .deps (Debian's libclang 16 and cJSON packages), build/release (built
# here) and .corpus (PolyBench-ACC, never committed).  Logs go to $OUT.
set -u
OUT=${OUT:-/tmp/cl1cc-out}
mkdir -p "$OUT" /tmp/deps
for f in .deps/*.deb; do dpkg -x "$f" /tmp/deps; done
export LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu:/tmp/deps/usr/lib/llvm-16/lib
export PATH="$PATH:/usr/local/cuda/bin"
cl1cc=$PWD/build/release/bin/cl1cc
summary=$OUT/summary.txt
{
    echo "== machine"; nvidia-smi -L; nvcc --version | tail -n 2; git log -1 --format='commit %H' 2>/dev/null
} >"$summary" 2>&1
status() { printf '%-40s %s\n' "$1" "$2" >>"$summary"; }

sh testsuite/example/run_example.sh "$cl1cc" >"$OUT/example.log" 2>&1
status "gpu_example_runs" "exit $? ($(tail -n 1 "$OUT/example.log"))"

sh testsuite/judge/gpu_judge.sh "$cl1cc" >"$OUT/judge.log" 2>&1
status "gpu_judge_cheats" "exit $? ($(grep -c '^ok' "$OUT/judge.log") ok, $(grep -c '^FAIL' "$OUT/judge.log") failed)"

if [ -d .corpus/PolyBench-ACC-CUDA ]; then
    timeout 420 sh testsuite/bench/judge_overhead.sh "$cl1cc" .corpus/PolyBench-ACC-CUDA \
        .corpus/variants/mm2_kernel1.register_acc.cu >"$OUT/judge_2mm.log" 2>&1
    status "judge 2mm bench" "exit $? ($(grep 'per variant' "$OUT/judge_2mm.log"))"
fi

fails=0
for name in single multi_shared_device templates namespaces macros lambdas uses_header; do
    sh testsuite/frontend/golden.sh "$cl1cc" testsuite/frontend/fixtures/$name.cu \
        testsuite/frontend/expected/$name.summary >>"$OUT/golden.log" 2>&1 || fails=$((fails + 1))
done
status "frontend golden fixtures (device CUDA)" "$fails failed of 7"

sh testsuite/frontend/bad_inputs.sh "$cl1cc" testsuite/frontend/fixtures/bad >"$OUT/bad.log" 2>&1
status "frontend bad inputs" "exit $?"

sh testsuite/wrapper/passthrough.sh "$cl1cc" >"$OUT/passthrough.log" 2>&1
status "wrapper pass-through vs nvcc" "exit $? ($(grep -c '^ok' "$OUT/passthrough.log") ok, $(grep -c '^FAIL' "$OUT/passthrough.log") failed)"

if [ -d .corpus/PolyBench-ACC-CUDA ]; then
    mkdir -p /tmp/pb && cp -r .corpus/PolyBench-ACC-CUDA /tmp/pb/CUDA
    sh testsuite/bench/parse_time.sh "$cl1cc" /tmp/pb 2 >"$OUT/parse_time.txt" 2>&1
    status "parse-time bench" "exit $? (table in parse_time.txt)"
fi
cat "$summary"
tail -n 1 "$OUT/parse_time.txt" 2>/dev/null
