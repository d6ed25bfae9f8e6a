#!/bin/sh
# wrapper_overhead.sh CL1CC DB_PUT POLYBENCH-CUDA-DIR [REPEATS]: wall time of
# `cl1cc -c` against `nvcc -c` on PolyBench-ACC TUs, alternating, median of
# REPEATS: with no database, with a database that has no entry for the TU,
# and with a hit (a variant of the TU's first kernel, recorded by db_put).
# Also checks every one of the 21 programs builds through cl1cc (no
# database) with device code identical to plain nvcc's.
set -u
cl1cc=$(readlink -f "$1") db_put=$(readlink -f "$2") pb=$(readlink -f "$3") reps=${4:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_CACHE_DIR="$work/cache"
flags="-O3 -arch=sm_90 -I$pb/utilities -DcudaThreadSynchronize=cudaDeviceSynchronize"
now() { date +%s.%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
devcode() { t=$(mktemp); objcopy -O binary --only-section=.nv_fatbin "$1" "$t" 2>/dev/null; cat "$t"; rm -f "$t"; }

same=0 total=0
for cu in $(find "$pb" -name '*.cu' | sort); do
    total=$((total + 1))
    (cd "$(dirname "$cu")" && CL1CC_DB="$work/none.db" "$cl1cc" $flags -c "$cu" -o "$work/a.o" 2>/dev/null &&
        nvcc $flags -c "$cu" -o "$work/b.o" 2>/dev/null)
    devcode "$work/a.o" >"$work/a.dev"; devcode "$work/b.o" >"$work/b.dev"
    if [ -s "$work/a.dev" ] && cmp -s "$work/a.dev" "$work/b.dev"; then same=$((same + 1)); else echo "DIFFERS: $cu"; fi
done
echo "$same of $total PolyBench-ACC programs: device code through cl1cc (no database) identical to nvcc's"

# an unrelated entry, so the database exists but has nothing for these TUs
printf '__global__ void other(float *x) { x[0] = 1; }\n' >"$work/other.cu"
printf '__global__ void other(float *x) { x[0] = 2; }\n' >"$work/other_v.cu"
CL1CC_DB="$work/miss.db" "$db_put" "$work/other.cu" other "$work/other_v.cu" 2.0 -- $flags

printf '%-14s %9s %9s %9s %9s %7s %7s %7s\n' program nvcc_s nodb_s miss_s hit_s nodb_r miss_r hit_r
for prog in linear-algebra/kernels/2mm/2mm.cu linear-algebra/kernels/gemm/gemm.cu stencils/adi/adi.cu datamining/correlation/correlation.cu; do
    cu=$pb/$prog
    dir=$(dirname "$cu")
    kernel=$(sed -n 's/^__global__ void \([A-Za-z0-9_]*\).*/\1/p' "$cu" | head -n 1)
    # the hit: the kernel's own text, recorded as a verified variant
    awk -v k="$kernel" '$0 ~ "^__global__ void " k "\\(" { on = 1 } on { print } on && /^}/ { exit }' "$cu" >"$work/v.cu"
    rm -f "$work/hit.db"
    (cd "$dir" && CL1CC_DB="$work/hit.db" "$db_put" "$cu" "$kernel" "$work/v.cu" 2.0 -- $flags) || echo "db_put failed for $prog"
    : >"$work/n"; : >"$work/x"; : >"$work/m"; : >"$work/h"
    i=0
    while [ $i -lt "$reps" ]; do
        cd "$dir"
        t0=$(now); nvcc $flags -c "$cu" -o "$work/o.o" 2>/dev/null
        t1=$(now); CL1CC_DB="$work/none.db" "$cl1cc" $flags -c "$cu" -o "$work/o.o" 2>/dev/null
        t2=$(now); CL1CC_DB="$work/miss.db" "$cl1cc" $flags -c "$cu" -o "$work/o.o" 2>/dev/null
        t3=$(now); CL1CC_DB="$work/hit.db" "$cl1cc" $flags -c "$cu" -o "$work/o.o" 2>/dev/null
        t4=$(now)
        awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }' >>"$work/n"
        awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }' >>"$work/x"
        awk -v a="$t2" -v b="$t3" 'BEGIN { print b - a }' >>"$work/m"
        awk -v a="$t3" -v b="$t4" 'BEGIN { print b - a }' >>"$work/h"
        i=$((i + 1))
    done
    n=$(median <"$work/n"); x=$(median <"$work/x"); m=$(median <"$work/m"); h=$(median <"$work/h")
    printf '%-14s %9.3f %9.3f %9.3f %9.3f %7.2f %7.2f %7.2f\n' "$(basename "$cu" .cu)" "$n" "$x" "$m" "$h" \
        "$(awk -v a="$x" -v b="$n" 'BEGIN { print a / b }')" "$(awk -v a="$m" -v b="$n" 'BEGIN { print a / b }')" \
        "$(awk -v a="$h" -v b="$n" 'BEGIN { print a / b }')"
done
