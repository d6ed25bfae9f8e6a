#!/bin/sh
# startup_overhead.sh CL1CC [CALLS]: what cl1cc costs on top of nvcc when it
# only hands over, in one run, alternating the two, CALLS (20) of each:
#   1. `nvcc --version` against `cl1cc --version` (cl1cc passes it through):
#      the pass-through's own cost, in milliseconds (median of differences);
#   2. the same with CL1CC_DISABLE=1;
#   3. `nvcc -c` against `cl1cc -c` of a small TU with an empty tuning
#      database: the ratio of the medians.
# Prints a table.
set -u
cl1cc=$(readlink -f "$1") calls=${2:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_CACHE_DIR="$work/cache" CL1CC_DB="$work/empty.db"
now() { date +%s%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
cat >"$work/k.cu" <<'CU'
__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}
void run(float *x, int n) { scale<<<(n + 255) / 256, 256>>>(x, 2.0f, n); }
CU

# each row: milliseconds of nvcc, of cl1cc, in pairs
pairs() { # label, then the command after the compiler's name
    label=$1
    shift
    : >"$work/$label.ms"
    i=0
    while [ $i -lt "$calls" ]; do
        t0=$(now); nvcc "$@" >/dev/null 2>&1; t1=$(now)
        "$cl1cc" "$@" >/dev/null 2>&1; t2=$(now)
        echo "$(( (t1 - t0) / 1000 )) $(( (t2 - t1) / 1000 ))" >>"$work/$label.ms"
        i=$((i + 1))
    done
}
report() { # label, description
    n=$(awk '{ print $1 / 1000 }' "$work/$1.ms" | median)
    c=$(awk '{ print $2 / 1000 }' "$work/$1.ms" | median)
    d=$(awk '{ print ($2 - $1) / 1000 }' "$work/$1.ms" | median)
    r=$(awk -v n="$n" -v c="$c" 'BEGIN { printf "%.3f", c / n }')
    printf '| %s | %.1f | %.1f | %+.1f | %s |\n' "$2" "$n" "$c" "$d" "$r"
}
cd "$work" || exit 1
pairs version --version
CL1CC_DISABLE=1 pairs disabled --version
pairs compile -O3 -arch=sm_90 -c k.cu -o k.o
echo "$calls calls of each, alternating; medians in ms"
echo
echo "| call | nvcc | cl1cc | cl1cc - nvcc (median of pairs) | ratio of medians |"
echo "| --- | --- | --- | --- | --- |"
report version "--version (passed through)"
report disabled "--version, CL1CC_DISABLE=1"
report compile "-c k.cu, empty database"
