#!/bin/bash
# devset_flow.sh CL1CC DEVSET OUT [PROGRAM...] [-- TUNE-OPTIONS]
# The whole user flow on the development set (../shared/CORPUS.md), per
# program: build with plain nvcc; run it once under a CUPTI census of the
# kernels it launches (launch_census.c); `cl1cc tune --build --run` within
# a budget; rebuild through the wrapper (cl1cc as nvcc, the tuning
# database tune wrote); run both builds alternately; check the program's
# own self-check on both; compare wall times.  Needs a GPU.
#
# DEVSET holds hecbench/NAME-cuda/ and cuda-samples/{Common,Samples/...}
# (exported from zjin-lcf/HeCBench and NVIDIA/cuda-samples, never
# committed).  Writes per program OUT/NAME/{plain,tune,wrapped}.log,
# census.tsv, tune.json, runs.tsv, and OUT/table.txt (devset_table.py).
# BENCH_BUDGET: tune's --budget-seconds (default 60); BENCH_RUNS: runs of
# each build (default 2); BENCH_DEADLINE (epoch seconds): no program
# starts after it; BENCH_END (epoch seconds): every command's timeout ends
# by then.  DEVSET_LANES=N: N programs at once, one GPU: every run on the
# GPU takes its lock (CL1CC_GPU_LOCK, harness/gpu_lock.c) as the judges
# do: the census shared, tune's capture and the alternating (timed) runs
# exclusive (CL1CC_CAPTURE_ALONE), so no timing overlaps another program's
# GPU work.  With
# BENCH_GPUS=G (several GPUs) lane K runs on GPU (K-1) % G with that GPU's
# lock (lanes.sh): one program per GPU at once, timed as if alone.
set -u
cl1cc=$(readlink -f "$1") devset=$(readlink -f "$2") out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lanes.sh"
bench_args "$@"
mkdir -p "$out"
out=$(readlink -f "$out")
budget=${BENCH_BUDGET:-60} runs=${BENCH_RUNS:-2}
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "devset_flow: no GPU here: nothing run (the flow captures and times on a GPU)"
    exit 77
fi
export CL1CC_GPU_LOCK=${CL1CC_GPU_LOCK:-/tmp/cl1cc-devset-gpu-$(id -u).lock}
# tune's capture run alone on the GPU: its time is the program's own, not
# its share of a GPU other lanes use
export CL1CC_CAPTURE_ALONE=1
# a timeout of at most SECONDS that ends by BENCH_END
lim() {
    local t=$1 left
    if [ -n "${BENCH_END:-}" ]; then
        left=$((BENCH_END - $(date +%s)))
        [ "$left" -lt "$t" ] && t=$left
        [ "$t" -lt 1 ] && t=1
    fi
    echo "$t"
}
census=""
if [ -n "${BENCH_IN_LANE:-}" ]; then
    [ -f "$out/census.so" ] && census=$out/census.so
else
cupti=$(find "$cuda/" /usr/lib/x86_64-linux-gnu -name 'libcupti.so*' 2>/dev/null | head -n 1)
cupti_inc=$(find "$cuda/" -name cupti.h 2>/dev/null | head -n 1)
if [ -n "$cupti" ] && [ -n "$cupti_inc" ] &&
    gcc -shared -fPIC -O2 -I"$(dirname "$cupti_inc")" -I"$cuda/include" "$here/launch_census.c" \
        -o "$out/census.so" "$cupti" -Wl,-rpath,"$(dirname "$cupti")" 2>"$out/census-build.log"; then
    census=$out/census.so
else
    echo "devset_flow: the CUPTI census did not build (kernels launched: unknown; libcupti: ${cupti:-not found}, cupti.h: ${cupti_inc:-not found})"
fi
fi
# name | folder under DEVSET | build | run | self-check kind
table() {
    cat <<'EOF'
burger|hecbench/burger-cuda|make ARCH=sm_90|./main 4096 4096 100|hecbench
nbody|hecbench/nbody-cuda|make ARCH=sm_90|./main 8000 10|hecbench
is|hecbench/is-cuda|make ARCH=sm_90|./main 256 256 256|hecbench
sort|hecbench/sort-cuda|make ARCH=sm_90|./main 3 100|hecbench
topk|hecbench/topk-cuda|make ARCH=sm_90|./main 64 100|hecbench
quicksort|hecbench/quicksort-cuda|make ARCH=sm_90|./main 10 2048 2048|failures
groupnorm|hecbench/groupnorm-cuda|make ARCH=sm_90|./main 32 32 16 16 32 100|hecbench
filter|hecbench/filter-cuda|make ARCH=sm_90|./main 10000000 256 100|hecbench
accuracy|hecbench/accuracy-cuda|make ARCH=sm_90|./main 8192 10000 10 100|hecbench
stddev|hecbench/stddev-cuda|make ARCH=sm_90|./main 8192 16384 100|hecbench
entropy|hecbench/entropy-cuda|make ARCH=sm_90|./main 4096 4096 100|hecbench
particle-diffusion|hecbench/particle-diffusion-cuda|make ARCH=sm_90|./main 500 100|hecbench
all-pairs-distance|hecbench/all-pairs-distance-cuda|make ARCH=sm_90|./main 10000|hecbench
ising|hecbench/ising-cuda|make ARCH=sm_90|./main -x 2048 -y 2048 -w 10 -n 100|hecbench
wedford|hecbench/wedford-cuda|make ARCH=sm_90|./main 64 512 8192 100|hecbench
FDTD3d|cuda-samples/Samples/5_Domain_Specific/FDTD3d|nvcc -O3 -arch=sm_90 -std=c++17 -I../../../Common -Iinc src/FDTD3d.cpp src/FDTD3dGPU.cu src/FDTD3dReference.cpp -o FDTD3d|./FDTD3d|status
mergeSort|cuda-samples/Samples/0_Introduction/mergeSort|nvcc -O3 -arch=sm_90 -std=c++17 -I../../../Common bitonic.cu main.cpp mergeSort.cu mergeSort_host.cpp mergeSort_validate.cpp -o mergeSort|./mergeSort|status
threadFenceReduction|cuda-samples/Samples/2_Concepts_and_Techniques/threadFenceReduction|nvcc -O3 -arch=sm_90 -std=c++17 -I../../../Common threadFenceReduction.cu -o threadFenceReduction|./threadFenceReduction|status
eigenvalues|cuda-samples/Samples/2_Concepts_and_Techniques/eigenvalues|nvcc -O3 -arch=sm_90 -std=c++17 -I../../../Common bisect_large.cu bisect_small.cu bisect_util.cu gerschgorin.cpp main.cu matlab.cpp -o eigenvalues|./eigenvalues|status
sortingNetworks|cuda-samples/Samples/2_Concepts_and_Techniques/sortingNetworks|nvcc -O3 -arch=sm_90 -std=c++17 -I../../../Common bitonicSort.cu main.cpp oddEvenMergeSort.cu sortingNetworks_validate.cpp -o sortingNetworks|./sortingNetworks|status
EOF
}
# self-check of one run's log and exit status: pass or fail
verdict() { # KIND LOG STATUS
    case $1 in
    hecbench) [ "$3" = 0 ] && grep -q PASS "$2" && ! grep -q FAIL "$2" && echo pass || echo fail ;;
    failures) [ "$3" = 0 ] && grep -q 'Number of failures: 0' "$2" && echo pass || echo fail ;;
    *) [ "$3" = 0 ] && echo pass || echo fail ;;
    esac
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
# the flags the build compiles FILE with (what tune keys the database on):
# make -n's line for it, or the sample's command, without -c/-o/inputs
flags_of() { # DIR BUILD
    local line
    case $2 in
    make*) line=$(cd "$1" && make -n ARCH=sm_90 2>/dev/null | grep -E '(^| )nvcc .*\.cu' | head -n 1) ;;
    *) line=$2 ;;
    esac
    echo "$line" | tr ' ' '\n' | awk '
        skip { skip = 0; next }
        $0 == "-o" { skip = 1; next }
        $0 == "nvcc" || $0 == "-c" || $0 == "" || /\.(cu|cpp|o)$/ { next }
        { printf "%s ", $0 }'
}
# DEVSET_LANES: the programs dealt round-robin to N copies of this script
if [ "${DEVSET_LANES:-1}" -gt 1 ] && [ -z "${BENCH_IN_LANE:-}" ]; then
    [ -n "$programs" ] || programs=$(table | cut -d'|' -f1 | tr '\n' ' ')
    bench_lanes "$DEVSET_LANES" bash "$0" "$cl1cc" "$devset" "$out"
    cat "$out"/lane-*.log
    python3 "$here/devset_table.py" "$out" | tee "$out/table.txt"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$devset" "$work/plain"
cp -r "$devset" "$work/tuned"
cp -r "$devset" "$work/wrapped"
export CL1CC_CACHE_DIR="${CL1CC_CACHE_DIR:-$work/cache}"
table | while IFS='|' read -r name dir build run kind; do
    if [ -n "$programs" ]; then
        case " $programs " in *" $name "*) ;; *) continue ;; esac
    fi
    if [ -n "${BENCH_DEADLINE:-}" ] && [ "$(date +%s)" -ge "$BENCH_DEADLINE" ]; then
        echo "$name: not run (deadline)"; continue
    fi
    o=$out/$name
    mkdir -p "$o"
    export CL1CC_DB=$o/tuning.db
    echo "== $name"
    (cd "$work/plain/$dir" && sh -c "$build") >"$o/plain-build.log" 2>&1 || { echo "$name: plain build failed"; continue; }
    exe=${run%% *}
    # the census run (also the first plain run: its time is not used)
    {
        flock -s 9
        t0=$(now)
        (cd "$work/plain/$dir" && CUDA_INJECTION64_PATH=$census CL1CC_CENSUS_OUT=$o/census.raw \
            timeout "$(lim 600)" sh -c "$run") >"$o/census-run.log" 2>&1 9>&-
        st=$?
        t1=$(now)
    } 9>"$CL1CC_GPU_LOCK"
    [ -f "$o/census.raw" ] && c++filt <"$o/census.raw" >"$o/census.tsv"
    echo "census $(verdict "$kind" "$o/census-run.log" $st) $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')" >"$o/runs.tsv"
    # tune builds in a private copy of the folder it starts in: a sample's
    # build reaches ../../../Common, so its tune starts at the samples' root
    tcwd=$work/tuned/$dir tbuild=$build trun=$run sub=""
    case $dir in
    cuda-samples/*)
        sub=${dir#cuda-samples/}/ tcwd=$work/tuned/cuda-samples
        tbuild="cd $sub && $build" trun="cd $sub && $run" ;;
    esac
    files=$(cd "$work/tuned/$dir" && { ls *.cu src/*.cu 2>/dev/null; } | sed "s|^|$sub|")
    flags=$(flags_of "$work/tuned/$dir" "$build")
    case $dir in cuda-samples/*) flags=$(echo "$flags" | sed "s|-I\.\./\.\./\.\./Common|-I$work/tuned/cuda-samples/Common|; s|-Iinc|-I$work/tuned/$dir/inc|") ;; esac
    t0=$(now)
    # shellcheck disable=SC2086
    # DEVSET_VERBOSE=1: every judge's runs on the GPU, with their seconds,
    # into judge-runs.log (from the judges' logs in a work folder kept here)
    verbose="" work_opt=""
    if [ "${DEVSET_VERBOSE:-0}" = 1 ]; then verbose=1 work_opt="--work $o/work"; fi
    # shellcheck disable=SC2086
    (cd "$tcwd" && CL1CC_VERBOSE=$verbose timeout "$(lim $((budget * 4 + 900)))" "$cl1cc" tune \
        --build "$tbuild" --run "$trun" $work_opt \
        --captures "$o/captures" --json "$o/tune.json" --budget-seconds "$budget" $extra $files -- $flags) \
        >"$o/tune.log" 2>&1
    if [ -n "$verbose" ]; then
        find "$o/work" -name judge.err -exec grep -H "judge: ran" {} + >"$o/judge-runs.log" 2>/dev/null
        rm -rf "$o/work"
    fi
    echo "tune exit $? $(since "$t0")" >>"$o/runs.tsv"
    du -sk "$o/captures" 2>/dev/null | awk '{ print "captures_kb", $1 }' >>"$o/runs.tsv"
    find "$o/captures" -name meta 2>/dev/null | wc -l | awk '{ print "captures", $1 }' >>"$o/runs.tsv"
    find "$o/captures" -name meta -exec awk '/^kernel /{ k = $2 } /^instance /{ i = substr($0, 10) }
        END { print "kernel " k (i == "" ? "" : " instance " i) }' {} \; 2>/dev/null | sort | uniq -c >"$o/captured.txt"
    # what was captured, folder by folder (kilobytes), and each capture's meta
    (cd "$o/captures" 2>/dev/null && du -sk ./*/k* 2>/dev/null &&
        find . -name meta | sort | while read -r m; do echo "== $m"; grep -v '^arg ' "$m"; done) \
        >"$o/captures-list.txt" 2>&1
    rm -rf "$o/captures"
    wbuild="$build"
    case $build in
    make*) wbuild="$build CC=$cl1cc" ;;
    nvcc*) wbuild="$cl1cc ${build#nvcc }" ;;
    esac
    (cd "$work/wrapped/$dir" && CL1CC_VERBOSE=1 sh -c "$wbuild") >"$o/wrapped-build.log" 2>&1 ||
        { echo "$name: wrapped build failed"; continue; }
    for i in $(seq 1 "$runs"); do
        for which in plain wrapped; do
            {
                flock -x 9
                t0=$(now)
                (cd "$work/$which/$dir" && timeout "$(lim 600)" sh -c "$run") >"$o/$which-$i.log" 2>&1 9>&-
                st=$?
                el=$(since "$t0")
            } 9>"$CL1CC_GPU_LOCK"
            # a run the bench's own end (BENCH_END) cut short is no
            # self-check: "cut", and no more runs of this program
            if [ "$st" = 124 ] && [ -n "${BENCH_END:-}" ] && [ "$(date +%s)" -ge "$BENCH_END" ]; then
                echo "$which cut $el" >>"$o/runs.tsv"
                break 2
            fi
            echo "$which $(verdict "$kind" "$o/$which-$i.log" $st) $el" >>"$o/runs.tsv"
        done
    done
    [ -f "$CL1CC_DB-applied.log" ] && cp "$CL1CC_DB-applied.log" "$o/applied.log"
done
[ -n "${BENCH_IN_LANE:-}" ] || python3 "$here/devset_table.py" "$out" | tee "$out/table.txt"
