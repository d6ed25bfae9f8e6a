#!/bin/sh
# parse_time.sh CL1CC POLYBENCH-ACC-DIR [REPEATS]: for each PolyBench-ACC CUDA
# program, the frontend's parse time (cl1cc inspect) against `nvcc -c` of the
# same TU with the same flags, measured alternately in one run, as a ratio
# of medians; with the precompiled CUDA headers cached (the usual case
# after the first TU of a build) and without (CL1CC_NO_PCH=1).  Also checks the kernel and launch counts against grep.
set -eu
cl1cc=$1 pb=$2 reps=${3:-3}
flags="-I$pb/CUDA/utilities -DcudaThreadSynchronize=cudaDeviceSynchronize"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
printf '%-16s %7s %7s %9s %9s %9s %7s %7s\n' program kernels launches parse_s nopch_s nvcc_s ratio nopch_r
export CL1CC_CACHE_DIR="$work/cache"
total_p=0 total_n=0 total_c=0
for cu in $(find "$pb/CUDA" -name '*.cu' | sort); do
    name=$(basename "$cu" .cu)
    dir=$(dirname "$cu")
    : >"$work/p"; : >"$work/n"; : >"$work/c"
    i=0
    while [ $i -lt "$reps" ]; do
        t0=$(now); (cd "$dir" && "$cl1cc" inspect --summary "$cu" -- $flags >"$work/summary"); t1=$(now)
        (cd "$dir" && nvcc -c "$cu" $flags -o "$work/o.o" 2>/dev/null); t2=$(now)
        (cd "$dir" && CL1CC_NO_PCH=1 "$cl1cc" inspect --summary "$cu" -- $flags >/dev/null); t3=$(now)
        awk -v a="$t2" -v b="$t3" 'BEGIN { print b - a }' >>"$work/c"
        awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }' >>"$work/p"
        awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }' >>"$work/n"
        i=$((i + 1))
    done
    p=$(median <"$work/p"); n=$(median <"$work/n"); c=$(median <"$work/c")
    k=$(sed -n 's/^file .*: \([0-9]*\) kernels, \([0-9]*\) launches.*/\1/p' "$work/summary")
    l=$(sed -n 's/^file .*: \([0-9]*\) kernels, \([0-9]*\) launches.*/\2/p' "$work/summary")
    gk=$(grep -c '__global__' "$cu"); gl=$(grep -c '<<<' "$cu")
    mark=""; [ "$k" = "$gk" ] && [ "$l" = "$gl" ] || mark=" (grep: $gk kernels, $gl launches)"
    printf '%-16s %7s %7s %9.3f %9.3f %9.3f %7.2f %7.2f%s\n' "$name" "$k" "$l" "$p" "$c" "$n" \
        "$(awk -v a="$p" -v b="$n" 'BEGIN { print a / b }')" "$(awk -v a="$c" -v b="$n" 'BEGIN { print a / b }')" "$mark"
    total_p=$(awk -v a="$total_p" -v b="$p" 'BEGIN { print a + b }')
    total_n=$(awk -v a="$total_n" -v b="$n" 'BEGIN { print a + b }')
    total_c=$(awk -v a="$total_c" -v b="$c" 'BEGIN { print a + b }')
done
printf '%-16s %7s %7s %9.3f %9.3f %9.3f %7.2f %7.2f\n' total "" "" "$total_p" "$total_c" "$total_n" \
    "$(awk -v a="$total_p" -v b="$total_n" 'BEGIN { print a / b }')" "$(awk -v a="$total_c" -v b="$total_n" 'BEGIN { print a / b }')"
