#!/bin/sh
# launch_variants.sh CL1CC POL_TOOL POLYBENCH-CUDA-DIR PROGRAM:KERNEL...: the
# launch transforms side by side, one judge per kernel (so the ratios come
# from one run).  Captures each program once through `cl1cc capture`, makes
# every combination in $COMBOS (default below) with pol_tool for the
# captured block and grid (pointers taken as distinct allocations: the
# judge checks), skips the ones the policy refuses, judges the
# rest together and prints one table row per variant: verdict, median ms,
# speedup over the original.  Needs a GPU; pol_tool needs CL1CC_STUB_DIR.
#   e.g. launch_variants.sh build/device/bin/cl1cc build/device/bin/pol_tool \
#        .corpus/PolyBench-ACC-CUDA gemver:gemver_kernel1 2DConvolution:convolution2D_kernel
set -u
cl1cc=$(readlink -f "$1") pol_tool=$(readlink -f "$2") pb=$(readlink -f "$3")
shift 3
combos=${COMBOS:-"restrict grid_stride4 grid_stride16 grid_sm restrict+grid_stride4 restrict+grid_sm"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_DB="$work/tuning.db" CL1CC_CACHE_DIR="$work/cache"
cp -r "$pb" "$work/CUDA"
find "$work/CUDA" -name '*.cu' -exec sed -i 's|^#define RUN_ON_CPU|/* & */|' {} +
flags="-O3 -arch=sm_90 -I$work/CUDA/utilities -DcudaThreadSynchronize=cudaDeviceSynchronize"
rows=$work/rows.txt
: >"$rows"
for pk in "$@"; do
    prog=${pk%%:*} kernel=${pk#*:}
    cu=$(find "$work/CUDA" -name "$prog.cu" | head -n 1)
    [ -n "$cu" ] || { echo "$prog: not found"; continue; }
    dir=$(dirname "$cu")
    cap=$work/cap-$prog
    if [ ! -d "$cap" ]; then
        (cd "$dir" && "$cl1cc" capture --out "$cap" --limit 1 --build "nvcc $flags -o $prog.exe $prog.cu" \
            --run "./$prog.exe" "$prog.cu") >"$work/capture-$prog.log" 2>&1 ||
            { echo "$prog: capture failed"; tail -n 5 "$work/capture-$prog.log"; continue; }
    fi
    meta=$(grep -l "^kernel $kernel\$" "$cap"/*/k*/*/meta 2>/dev/null | head -n 1)
    [ -n "$meta" ] || { echo "$pk: no capture of the kernel"; continue; }
    shape=$(awk '$1 == "block" { print $2 "," $3 "," $4 }' "$meta")
    grid=$(awk '$1 == "grid" { print $2 "," $3 "," $4 }' "$meta")
    set --
    for c in $combos; do
        v=$work/$prog-$kernel-$c.cu
        # shellcheck disable=SC2086
        "$pol_tool" "$cu" "$kernel" "$c" --distinct --shape "$shape" --grid "$grid" -- $flags >"$v" 2>/dev/null || continue
        if grep -q '^refused: ' "$v"; then
            printf '%-14s %-24s %-26s refused: %s\n' "$prog" "$kernel" "$c" "$(sed 's/^refused: //' "$v")" >>"$rows"
            continue
        fi
        set -- "$@" --variant "$v" --label "$c"
    done
    [ $# -gt 0 ] || continue
    # shellcheck disable=SC2086
    (cd "$dir" && "$cl1cc" judge "$prog.cu" "$kernel" --captures "$(dirname "$meta")" --timeout 60 "$@" \
        --json "$work/$prog-$kernel.json" -- $flags) >"$work/judge-$prog-$kernel.txt" 2>&1
    python3 - "$work/$prog-$kernel.json" "$prog" "$kernel" "$grid" "$shape" >>"$rows" <<'PY' ||
import json, sys
j = json.load(open(sys.argv[1]))
o = j["original"]["median_ms"]
print(f"{sys.argv[2]:<14} {sys.argv[3]:<24} {'original':<26} grid {sys.argv[4]} block {sys.argv[5]}: {o:.4f} ms")
for v in j["variants"]:
    t = (v.get("timing") or {}).get("median_ms")
    sp = v.get("speedup")
    ms = f"{t:.4f} ms" if isinstance(t, (int, float)) and t > 0 else "-"
    x = f"{sp:.3f}x" if isinstance(sp, (int, float)) and v["verdict"] == "pass" else "-"
    print(f"{sys.argv[2]:<14} {sys.argv[3]:<24} {v.get('label') or '?':<26} {v['verdict']:<8} {ms:>12} {x:>8}")
PY
        { echo "$pk: the judge failed"; tail -n 5 "$work/judge-$prog-$kernel.txt"; }
done
printf '%-14s %-24s %-26s %s\n' program kernel variant "verdict, median, speedup"
cat "$rows"
