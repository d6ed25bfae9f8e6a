#!/bin/sh
# tune_polybench.sh CL1CC POLYBENCH-CUDA-DIR OUT-DIR [PROGRAM...] [-- TUNE-OPTIONS]
# Tunes every PolyBench-ACC CUDA program (or the ones named, e.g. 2mm atax)
# with `cl1cc tune`: builds and runs each through capture, then rounds of
# built-in proposals verified and timed on the GPU.  Leaves one JSON
# summary per program and the tuning database in OUT-DIR, and prints the
# table (tune_table.py).  Needs a GPU.  Extra tune options after "--", e.g.
# "-- --order random --kernel-evals 3".  BENCH_DEADLINE=<epoch seconds> ends
# the run in time: later programs are not started.  BENCH_LANES=N: N
# programs at once on the one GPU (each lane its own database and
# captures, OUT-DIR/lane-K/; the judges' GPU lock keeps every timing
# alone on the GPU), one table over all.
set -u
cl1cc=$(readlink -f "$1") pb=$(readlink -f "$2") out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lanes.sh"
bench_args "$@"
mkdir -p "$out"
out=$(readlink -f "$out")
# each lane its own database, captures and cache
bench_lane_env() {
    echo "CL1CC_DB=$out/lane-$1/tuning.db CL1CC_CACHE_DIR=/tmp/cl1cc-bench-cache-$1"
}
if [ "${BENCH_LANES:-1}" -gt 1 ] && [ -z "${BENCH_IN_LANE:-}" ]; then
    [ -n "$programs" ] || programs=$(cd "$pb" && find . -name '*.cu' | sort | xargs -n 1 basename | sed 's/\.cu$//')
    bench_lanes "$BENCH_LANES" sh "$0" "$cl1cc" "$pb" "$out"
    cat "$out"/lane-*/wall.txt 2>/dev/null | tee "$out/wall.txt"
    python3 "$here/tune_table.py" "$out"/lane-*/*.json | tee "$out/table.txt"
    exit 0
fi
if [ -n "${BENCH_IN_LANE:-}" ]; then
    out=$out/lane-$BENCH_IN_LANE
    mkdir -p "$out"
fi
export CL1CC_DB="${CL1CC_DB:-$out/tuning.db}" CL1CC_CACHE_DIR="${CL1CC_CACHE_DIR:-/tmp/cl1cc-bench-cache}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$pb" "$work/CUDA"
# PolyBench-ACC programs also run a CPU reference (#define RUN_ON_CPU in each
# file; 106 s for gramschmidt): the capture runs the whole program, and the
# judge compares variants with the original kernel on the GPU, so the copy
# goes without it.  BENCH_KEEP_CPU=1 keeps it.
if [ -z "${BENCH_KEEP_CPU:-}" ]; then
    find "$work/CUDA" -name '*.cu' -exec sed -i 's|^#define RUN_ON_CPU|/* & */|' {} +
fi
flags="-O3 -arch=sm_90 -I$work/CUDA/utilities -DcudaThreadSynchronize=cudaDeviceSynchronize"
for cu in $(cd "$work/CUDA" && find . -name '*.cu' | sort); do
    name=$(basename "$cu" .cu)
    if [ -n "$programs" ]; then
        case " $programs " in *" $name "*) ;; *) continue ;; esac
    fi
    dir="$work/CUDA/$(dirname "$cu")"
    # BENCH_DEADLINE (seconds since the epoch): no program starts after it,
    # and each gets only the time left as its budget
    budget=""
    if [ -n "${BENCH_DEADLINE:-}" ]; then
        left=$((BENCH_DEADLINE - $(date +%s)))
        if [ $left -le 20 ]; then echo "$name: not run (deadline)" | tee -a "$out/wall.txt"; continue; fi
        budget="--budget-seconds $left"
    fi
    echo "== $name"
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    (cd "$dir" && "$cl1cc" tune --build "nvcc $flags -o $name.exe $name.cu" --run "./$name.exe" \
        --captures "$out/captures" --json "$out/$name.json" $budget $extra "$name.cu" -- $flags) \
        >"$out/$name.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" -v rc="$rc" -v n="$name" 'BEGIN { printf "%s: exit %d, %.1f s\n", n, rc, b - a }' |
        tee -a "$out/wall.txt"
    grep -E '^(file|[a-zA-Z0-9_]+\.cu ) ' "$out/$name.log" | tail -n +1
    rm -rf "$out/captures"
done
python3 "$here/tune_table.py" "$out"/*.json | tee "$out/table.txt"
