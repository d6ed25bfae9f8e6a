#!/bin/sh
# run.sh STAGE [ARGS]: what this session checks on the GPU machine, in one
# call per stage.  Carry .deps (Debian's libclang 19 and cJSON packages),
# build/device (bin/ and share/ of a release build made here) and .corpus
# (PolyBench-ACC, never committed).  Logs go to $OUT.
#   tests              the GPU tests (capture runtime, example, judge cheat suite, long kernels,
#                      tune loop, taller grid, reshaped blocks, template
#                      instantiations, header kernels, patterns;
#                      SKIP_PATTERNS=1: not patterns)
#   judge              the judge's tests alone (gpu_judge.sh, gpu_long_kernel.sh)
#   capture            the capture runtime's GPU part (gpu_fingerprint.sh)
#   extrema            gpu_judge.sh's running_extrema and unjudgeable cases alone
#   patterns           the pattern programs' test alone (atomic_warp, interchange, spread)
#   taller             the taller-grid wrapper test alone
#   reshaped           the reshaped-block and grid-stride wrapper test alone
#   templates          the template-instantiation and header-kernel GPU tests alone
#   order PROGRAM... -- ARGS   the learned order (prior fixed) and random
#                      order (seeds 1, 2) at equal budget, e.g. "-- --kernel-evals 3
#                      --per-round 3"; a table per order in $OUT/order-*.txt
#   tune PROGRAM...    tune_polybench.sh on those programs [-- tune options]
#                      (SKIP_TUNE_LOOP=1: without the gpu_tune_loop test first;
#                      TUNE_TAG=name: its own output, tune-name.tgz)
#   overhead [N]       the judge's overhead per variant on 2mm, batched and --isolate
#   startup            a process's CUDA start, alone and beside a held context
#                      (testsuite/bench/cuda_startup.cu)
#   tiledot            testsuite/bench/tile_dot_check.cu (gemm: the original
#                      against tile_dot32/64/128 and the split tiles, checked,
#                      ms and TFLOP/s; TILEDOT_SIZES, default 512 1024 2048)
#   sums               testsuite/bench/sums_check.cu (column and row sums: the
#                      catalogue's variants and other shapes, GB/s against a copy)
#   parts              testsuite/bench/sums_parts.cu (which part of col_split8
#                      and wide_rows_vec as written costs their bandwidth)
#   reach              issue 29's checks on one build, for 'bg start': the
#                      capture runtime's GPU test, the judge's suite (at most
#                      REACH_JUDGE_S s, default 240), then the development set
#                      three at a time, the programs whose first verdict or
#                      capture cost missed last first (burger, is, accuracy),
#                      then those the sixteenth pass did not reach, no program
#                      started after REACH_DEVSET_S s (default 600: about ten
#                      programs; REACH_PROGRAMS: these programs instead)
#   pass               startup, tune on every PolyBench program, then the
#                      whole development set: one pass, for
#                      'bg start "sh testsuite/device/run.sh pass"'
#   short              a pass cut to little device time: six programs of the
#                      development set (SHORT_PROGRAMS), then every PolyBench
#                      program through tune as in 'pass'
#   kernels            testsuite/bench/pairs_rows_check.cu (covariance: split_loop256
#                      and tile_pairs64; row sums: wide_rows and wide_rows_vec)
#   final PROGRAM...   the judge's suite beside devset on PROGRAM... until
#                      FINAL_END (epoch seconds)
#   bg start 'COMMANDS' | bg wait
#                      COMMANDS (run.sh stages, ';'-separated) as a session of
#                      their own, with OUT=/tmp/bg/out, so that they outlive the
#                      call; each call waits BG_WAIT seconds (default 560) or
#                      until they end, then copies what they wrote into $OUT.
#                      A later 'bg wait' within the machine's idle time (30 s)
#                      finds them still running: one pass longer than a call
#   devset PROGRAM...  devset_flow.sh on .devset (the development set: build,
#                      census, tune, wrapper rebuild, alternating runs; none
#                      named: all; BENCH_BUDGET, BENCH_RUNS, BENCH_DEADLINE
#                      as there; DEVSET_TAG=name: devset-name.tgz;
#                      DEVSET_LANES=N: N programs at once, BENCH_END: the
#                      hard end; BENCH_LANES=N does the same for tune; on
#                      a machine of several GPUs each lane has a GPU of
#                      its own, BENCH_GPUS of them: all by default)
# The GPU machine has no libclang 19 and no network.  Here, once:
#   mkdir -p .deps && cd .deps && apt-get download libclang1-19 \
#       libclang-common-19-dev libllvm19 libicu72 libz3-4 libxml2 libedit2 libcjson1
# (about 50 MB; `ldd build/release/bin/cl1cc` names what else the build links)
# and a release build installed into build/device
# (cmake --install build/release --prefix build/device: bin/, libexec/, share/); carry both.
# cl1cc finds clang's resource headers beside the unpacked libclang.
set -u
OUT=${OUT:-/tmp/cl1cc-out}
mkdir -p "$OUT" /tmp/deps
for f in .deps/*.deb; do dpkg -x "$f" /tmp/deps; done
export LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu:/tmp/deps/usr/lib/llvm-19/lib
export PATH="$PATH:/usr/local/cuda/bin"
# on a machine of several GPUs the bench lanes take one each (lanes.sh)
BENCH_GPUS=${BENCH_GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}
[ "$BENCH_GPUS" -ge 1 ] 2>/dev/null || BENCH_GPUS=1
export BENCH_GPUS
cl1cc=$PWD/build/device/bin/cl1cc
summary=$OUT/summary.txt
{ echo "== machine"; nvidia-smi -L; nvcc --version | tail -n 2; date -u; } >>"$summary" 2>&1
status() { printf '%-40s %s\n' "$1" "$2" >>"$summary"; }
# the judge's timing of long kernels and the capture's launch_ms
long_kernel() {
    sh testsuite/judge/gpu_long_kernel.sh "$cl1cc" >"$OUT/judge_long.log" 2>&1
    status "gpu_judge_long_kernel" "exit $? ($(grep -c '^ok' "$OUT/judge_long.log") ok, $(grep -c '^FAIL' "$OUT/judge_long.log") failed)"
}
# the capture runtime's fingerprints and links on the GPU
capture_runtime() {
    sh testsuite/capture/gpu_fingerprint.sh harness/runtime >"$OUT/capture_fingerprint.log" 2>&1
    status "gpu_capture_fingerprint" "exit $? ($(grep -c '^ok' "$OUT/capture_fingerprint.log") ok, $(grep -c '^FAIL' "$OUT/capture_fingerprint.log") failed)"
}
# the taller-grid wrapper test: build/device/bin also holds db_put and
# pol_tool from the release build's testsuite
taller() {
    CL1CC_STUB_DIR=$PWD/build/device/share/cl1cc/clang-stubs sh testsuite/wrapper/taller_grid.sh \
        "$cl1cc" build/device/bin/db_put build/device/bin/pol_tool --run >"$OUT/taller.log" 2>&1
    status "gpu_taller_grid" "exit $? ($(tail -n 2 "$OUT/taller.log" | head -n 1))"
}
# a template kernel's variant applied to its verified instantiation only,
# the build run against plain nvcc's
templates() {
    sh testsuite/wrapper/template_instances.sh "$cl1cc" build/device/bin/db_put . --run \
        >"$OUT/template_instances.log" 2>&1
    status "gpu_template_instances" "exit $? ($(tail -n 1 "$OUT/template_instances.log"))"
}
# a kernel of a project header: its variant applied in two TUs, the build run
# against plain nvcc's; then tuned from one TU, applied, rewritten, reverted
headers() {
    sh testsuite/wrapper/header_kernel.sh "$cl1cc" build/device/bin/db_put . --run \
        >"$OUT/header_kernel.log" 2>&1
    status "gpu_header_kernel_applied" "exit $? ($(tail -n 1 "$OUT/header_kernel.log"))"
    sh testsuite/wrapper/gpu_header_tune.sh "$cl1cc" . >"$OUT/header_tune.log" 2>&1
    status "gpu_header_tune" "exit $? ($(tail -n 1 "$OUT/header_tune.log"))"
}
# the reshaped-block and grid-stride wrapper test, run
reshaped() {
    CL1CC_STUB_DIR=$PWD/build/device/share/cl1cc/clang-stubs sh testsuite/wrapper/reshaped_blocks.sh \
        "$cl1cc" build/device/bin/db_put build/device/bin/pol_tool --run >"$OUT/reshaped.log" 2>&1
    status "gpu_reshaped_blocks" "exit $? ($(tail -n 2 "$OUT/reshaped.log" | head -n 1))"
}
# atomic_warp, interchange and spread on testsuite/bench/patterns (the gpu_patterns
# test), with the tune table of what it found
patterns() {
    GPU_PATTERNS_OUT=$OUT/patterns sh testsuite/tune/gpu_patterns.sh "$cl1cc" testsuite/bench/patterns \
        >"$OUT/patterns.log" 2>&1
    status "gpu_patterns" "exit $? ($(tail -n 1 "$OUT/patterns.log"))"
    python3 testsuite/bench/tune_table.py "$OUT"/patterns/*.json >>"$summary" 2>&1
}
startup() {
    # a process's CUDA start, alone and beside one holding a context
    # (testsuite/bench/cuda_startup.cu): the cost of each judge run
    nvcc -O3 -arch=sm_90 -o /tmp/cuda_startup testsuite/bench/cuda_startup.cu >"$OUT/startup.log" 2>&1 || return
    nvidia-smi --query-gpu=persistence_mode,name --format=csv,noheader >>"$OUT/startup.log" 2>&1
    for mode in alone held; do
        hold=""
        if [ $mode = held ]; then /tmp/cuda_startup hold 60 & hold=$!; sleep 3; fi
        for i in 1 2 3 4 5 6; do
            a=$(date +%s.%N); /tmp/cuda_startup; b=$(date +%s.%N)
            echo "$mode $i $a $b" | awk '{ printf "%s %s %.3f\n", $1, $2, $4 - $3 }' >>"$OUT/startup.log"
        done
        [ -n "$hold" ] && kill $hold 2>/dev/null
    done
    awk '/^(alone|held) /{ s[$1] += $3; n[$1]++ } END { for (m in s) printf "cuda start %s: %.3f s a process (mean of %d)\n", m, s[m] / n[m], n[m] }' \
        "$OUT/startup.log" >>"$summary"
    grep -v '^alone\|^held' "$OUT/startup.log" | tail -n 2 >>"$summary"
}

# a GPU check program of testsuite/bench/ (NAME.cu), built and run with
# ARGS within SECONDS: its exit in the summary, with its last LINES lines
# but nvcc's warnings
bench_check() { # NAME SECONDS LINES [ARGS...]
    name=$1 secs=$2 lines=$3
    shift 3
    nvcc -O3 -arch=sm_90 -o "/tmp/$name" "testsuite/bench/$name.cu" >"$OUT/$name.log" 2>&1 &&
        timeout "$secs" "/tmp/$name" "$@" >>"$OUT/$name.log" 2>&1
    status "$name $*" "exit $?"
    grep -v 'warning\|declared but\|^ *\^\|Remark\|^$' "$OUT/$name.log" | tail -n "$lines" >>"$summary"
}
stage=${1:-tests}
[ $# -gt 0 ] && shift
case "$stage" in
capture)
    capture_runtime
    ;;
tests)
    capture_runtime
    sh testsuite/tune/gpu_tune.sh "$cl1cc" >"$OUT/tune_loop.log" 2>&1
    status "gpu_tune_loop" "exit $? ($(tail -n 1 "$OUT/tune_loop.log"))"
    sh testsuite/example/run_example.sh "$cl1cc" >"$OUT/example.log" 2>&1
    status "gpu_example_runs" "exit $? ($(tail -n 1 "$OUT/example.log"))"
    sh testsuite/judge/gpu_judge.sh "$cl1cc" >"$OUT/judge.log" 2>&1
    status "gpu_judge_cheats" "exit $? ($(grep -c '^ok' "$OUT/judge.log") ok, $(grep -c '^FAIL' "$OUT/judge.log") failed)"
    long_kernel
    taller
    reshaped
    templates
    headers
    [ -n "${SKIP_PATTERNS:-}" ] || patterns
    ;;
templates)
    templates
    headers
    ;;
extrema)
    GPU_JUDGE_ONLY="running_extrema unjudgeable" sh testsuite/judge/gpu_judge.sh "$cl1cc" >"$OUT/extrema.log" 2>&1
    status "gpu_judge running_extrema unjudgeable" "exit $? ($(grep -c '^ok' "$OUT/extrema.log") ok, $(grep -c '^FAIL' "$OUT/extrema.log") failed)"
    ;;
judge)
    sh testsuite/judge/gpu_judge.sh "$cl1cc" >"$OUT/judge.log" 2>&1
    status "gpu_judge_cheats" "exit $? ($(grep -c '^ok' "$OUT/judge.log") ok, $(grep -c '^FAIL' "$OUT/judge.log") failed)"
    long_kernel
    ;;
patterns)
    patterns
    ;;
tune)
    # few files come back from the device: everything goes into one archive
    if [ -z "${SKIP_TUNE_LOOP:-}" ]; then
        sh testsuite/tune/gpu_tune.sh "$cl1cc" >"$OUT/tune_loop.log" 2>&1
        status "gpu_tune_loop" "exit $? ($(tail -n 1 "$OUT/tune_loop.log"))"
    fi
    # TUNE_TAG=name: a run of its own (tune-name.tgz), so that one call can
    # tune several sets of programs with different options
    tag=${TUNE_TAG:+-$TUNE_TAG}
    sh testsuite/bench/tune_polybench.sh "$cl1cc" .corpus/PolyBench-ACC-CUDA "/tmp/tune-out$tag" "$@" \
        >"$OUT/tune_bench$tag.log" 2>&1
    status "tune_polybench $*" "exit $?"
    tail -n 60 "/tmp/tune-out$tag/table.txt" >>"$summary" 2>/dev/null
    tar czf "$OUT/tune$tag.tgz" -C /tmp --exclude=captures "tune-out$tag"
    ;;
taller)
    taller
    ;;
reshaped)
    reshaped
    ;;
order)
    for mode in learned random1 random2; do
        case $mode in
        learned) flags="--no-learn" ;;
        random*) flags="--order random --seed ${mode#random}" ;;
        esac
        rm -rf /tmp/order-out
        # shellcheck disable=SC2086
        sh testsuite/bench/tune_polybench.sh "$cl1cc" .corpus/PolyBench-ACC-CUDA /tmp/order-out "$@" $flags \
            >"$OUT/order-$mode.log" 2>&1
        status "order $mode $*" "exit $?"
        cp /tmp/order-out/table.txt "$OUT/order-$mode.txt" 2>/dev/null
        tail -n 1 "$OUT/order-$mode.txt" >>"$summary" 2>/dev/null
    done
    ;;
tiledot)
    # gemm: the original against tile_dot32/64/128 and the split tiles,
    # checked, ms and TFLOP/s, at each of TILEDOT_SIZES (default 512 1024
    # 2048: PolyBench's gemm and 3mm, 2mm, correlation's size)
    for n in ${TILEDOT_SIZES:-512 1024 2048}; do
        bench_check tile_dot_check 120 8 "$n"
    done
    ;;
sums)
    # column and row sums against the copy bandwidth
    bench_check sums_check 120 40
    ;;
parts)
    # the parts of col_split8 and wide_rows_vec as written, one at a time
    bench_check sums_parts 120 22
    ;;
startup)
    startup
    ;;
reach)
    capture_runtime
    timeout "${REACH_JUDGE_S:-240}" sh testsuite/judge/gpu_judge.sh "$cl1cc" >"$OUT/judge.log" 2>&1
    status "gpu_judge_cheats" "exit $? ($(grep -c '^ok' "$OUT/judge.log") ok, $(grep -c '^FAIL' "$OUT/judge.log") failed)"
    grep '^FAIL' "$OUT/judge.log" >>"$summary"
    S=$(date +%s)
    DEVSET_VERBOSE=1 DEVSET_TAG=all DEVSET_LANES=3 BENCH_BUDGET=30 BENCH_RUNS=4 \
        BENCH_DEADLINE=$((S + ${REACH_DEVSET_S:-600})) BENCH_END=$((S + ${REACH_DEVSET_S:-600} + 150)) \
        sh testsuite/device/run.sh devset ${REACH_PROGRAMS:-burger is accuracy all-pairs-distance \
        entropy ising groupnorm wedford FDTD3d eigenvalues mergeSort sortingNetworks \
        threadFenceReduction sort quicksort particle-diffusion topk nbody stddev filter}
    ;;
pass)
    # one pass (docs/BENCHMARKS.md), meant for 'bg start': the CUDA start
    # of a process; every PolyBench program through tune, 6 at a time (no
    # program started after PASS_TUNE_S seconds, default 360: all 21 took 5
    # minutes in the twelfth pass; PASS_EVALS
    # proposals a kernel in one round, default 8; PASS_PROGRAMS: only those
    # programs); then the whole
    # development set, PASS_DEVSET_LANES programs at a time (default 3; no
    # program started after PASS_DEVSET_S seconds, default 800: the 15
    # HeCBench programs took 780 s three at a time in the fourteenth pass,
    # and the cuda-samples come last in their lanes; none running after 150
    # more), budget 30 s, each judge's runs timed (judge-runs.log),
    # PASS_DEVSET_RUNS runs of each build (default 4: "slower" beyond noise);
    # then the judge's GPU suite (PASS_NO_JUDGE=1: not); PASS_NO_TUNE=1:
    # the development set alone
    startup
    S=$(date +%s)
    [ -n "${PASS_NO_TUNE:-}" ] || BENCH_LANES=${BENCH_LANES:-6} SKIP_TUNE_LOOP=1 BENCH_DEADLINE=$((S + ${PASS_TUNE_S:-360})) \
        sh testsuite/device/run.sh tune ${PASS_PROGRAMS:-} -- --kernel-evals ${PASS_EVALS:-8} --per-round ${PASS_EVALS:-8}
    S=$(date +%s)
    DEVSET_VERBOSE=1 DEVSET_TAG=all DEVSET_LANES=${PASS_DEVSET_LANES:-3} BENCH_BUDGET=30 \
        BENCH_RUNS=${PASS_DEVSET_RUNS:-4} \
        BENCH_DEADLINE=$((S + ${PASS_DEVSET_S:-800})) BENCH_END=$((S + ${PASS_DEVSET_S:-800} + 150)) \
        sh testsuite/device/run.sh devset
    # then the judge's GPU suite on this build, unless PASS_NO_JUDGE is set
    if [ -z "${PASS_NO_JUDGE:-}" ]; then
        timeout "${PASS_JUDGE_S:-300}" sh testsuite/judge/gpu_judge.sh "$cl1cc" >"$OUT/judge.log" 2>&1
        status "gpu_judge_cheats" "exit $? ($(grep -c '^ok' "$OUT/judge.log") ok, $(grep -c '^FAIL' "$OUT/judge.log") failed)"
        grep '^FAIL' "$OUT/judge.log" >>"$summary"
    fi
    ;;
short)
    # a pass cut to little device time: the development set's programs
    # SHORT_PROGRAMS (default: the three of issue 29's misses, then three
    # with gains) three at a time, none started after SHORT_DEVSET_S s
    # (default 150), none running SHORT_END_S s (default 130) after that;
    # then every PolyBench program (SHORT_TUNE_PROGRAMS: those) through
    # tune as in 'pass' (no program started after PASS_TUNE_S s, default 300)
    S=$(date +%s)
    DEVSET_VERBOSE=1 DEVSET_TAG=all DEVSET_LANES=3 BENCH_BUDGET=30 BENCH_RUNS=4 \
        BENCH_DEADLINE=$((S + ${SHORT_DEVSET_S:-150})) BENCH_END=$((S + ${SHORT_DEVSET_S:-150} + ${SHORT_END_S:-130})) \
        sh testsuite/device/run.sh devset ${SHORT_PROGRAMS:-burger is accuracy nbody particle-diffusion filter}
    S=$(date +%s)
    BENCH_LANES=6 SKIP_TUNE_LOOP=1 BENCH_DEADLINE=$((S + ${PASS_TUNE_S:-300})) \
        sh testsuite/device/run.sh tune ${SHORT_TUNE_PROGRAMS:-} -- --kernel-evals 8 --per-round 8
    ;;
kernels)
    # tile_pairs64 and wide_rows_vec against the original and split_loop256 /
    # wide_rows, as the policy writes them (testsuite/bench/pairs_rows_check.cu)
    bench_check pairs_rows_check 200 30
    ;;
final)
    # the judge's suite beside the development set's flow (DEVSET_LANES
    # programs at once): one GPU lock for all, so every timing is alone
    end=${FINAL_END:-$(( $(date +%s) + 500 ))}
    export CL1CC_GPU_LOCK=${CL1CC_GPU_LOCK:-/tmp/cl1cc-final-gpu.lock}
    (timeout "${FINAL_JUDGE_S:-300}" sh testsuite/judge/gpu_judge.sh "$cl1cc" >"$OUT/judge.log" 2>&1
        echo $? >/tmp/judge.rc) &
    judge_pid=$!
    export BENCH_DEADLINE=${BENCH_DEADLINE:-$(( end - 150 ))} BENCH_END=$(( end - 10 ))
    bash testsuite/bench/devset_flow.sh "$cl1cc" .devset /tmp/devset-out "$@" >"$OUT/devset.log" 2>&1
    status "devset $*" "exit $?"
    wait $judge_pid
    status "gpu_judge_cheats" "exit $(cat /tmp/judge.rc) ($(grep -c '^ok' "$OUT/judge.log") ok, $(grep -c '^FAIL' "$OUT/judge.log") failed)"
    grep '^FAIL' "$OUT/judge.log" >>"$summary"
    cat /tmp/devset-out/table.txt >>"$summary" 2>/dev/null
    tar czf "$OUT/devset.tgz" -C /tmp --exclude=captures --exclude='*.db' devset-out
    ;;
devset)
    tag=${DEVSET_TAG:+-$DEVSET_TAG}
    bash testsuite/bench/devset_flow.sh "$cl1cc" .devset "/tmp/devset-out$tag" "$@" \
        >"$OUT/devset$tag.log" 2>&1
    status "devset $*" "exit $?"
    cat "/tmp/devset-out$tag/table.txt" >>"$summary" 2>/dev/null
    tar czf "$OUT/devset$tag.tgz" -C /tmp --exclude=captures --exclude='*.db' "devset-out$tag"
    ;;
bg)
    mode=${1:-wait}
    [ $# -gt 0 ] && shift
    if [ "$mode" = start ]; then
        rm -rf /tmp/bg && mkdir -p /tmp/bg/out
        OUT=/tmp/bg/out setsid sh -c "$1; echo \$? >/tmp/bg/done" >/tmp/bg/job.log 2>&1 </dev/null &
    fi
    # at most 8 files come back: the archives and the summary as they are,
    # every log in logs.tgz
    bg_collect() {
        cp /tmp/bg/out/*.tgz /tmp/bg/out/summary.txt "$OUT"/ 2>/dev/null
        cp /tmp/bg/job.log /tmp/bg/out/bg_job.log 2>/dev/null
        (cd /tmp/bg/out && tar czf "$OUT/logs.tgz" $(ls *.log *.txt 2>/dev/null)) 2>/dev/null
    }
    end=$(( $(date +%s) + ${BG_WAIT:-560} ))
    # what the job has written so far, every 30 s: a call cut short by the
    # machine's end still brings back what was done (partial.tgz: the tune
    # and devset outputs without captures or databases)
    n=0
    while [ ! -f /tmp/bg/done ] && [ "$(date +%s)" -lt "$end" ]; do
        sleep 5
        n=$((n + 1))
        if [ $((n % 6)) -eq 0 ]; then
            bg_collect
            (cd /tmp && tar czf "$OUT/partial.tgz.new" --exclude=captures --exclude='*.db' \
                $(ls -d tune-out* devset-out* 2>/dev/null) 2>/dev/null) &&
                mv "$OUT/partial.tgz.new" "$OUT/partial.tgz"
        fi
    done
    bg_collect
    if [ -f /tmp/bg/done ]; then
        echo "bg: done (exit $(cat /tmp/bg/done))"
    else
        echo "bg: still running: call 'bg wait' again within the machine's idle time"
        ls -la /tmp/bg/out
    fi
    ;;
overhead)
    timeout 400 sh testsuite/bench/judge_overhead.sh "$cl1cc" .corpus/PolyBench-ACC-CUDA "$@" \
        >"$OUT/judge_2mm.log" 2>&1
    status "judge 2mm overhead" "exit $?"
    grep '^judge \|^capture' "$OUT/judge_2mm.log" >>"$summary"
    ;;
esac
cat "$summary"
