#!/bin/bash
# devset_static.sh CL1CC DEVSET OUT [PROGRAM...]: which launch sites of the
# development set cl1cc instruments for capture, without a GPU: for each
# program (devset_flow.sh's table) `cl1cc capture --build BUILD --run true
# FILES` in a copy, keeping OUT/NAME.log (the not_captured lines) and
# OUT/NAME.instrumented (the "instrumented N" record).  Prints one line per
# program: launch sites instrumented, and the kernels left with the reason.
set -u
cl1cc=$(readlink -f "$1") devset=$(readlink -f "$2") out=$3
shift 3
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
export CL1CC_CACHE_DIR="${CL1CC_CACHE_DIR:-/tmp/cl1cc-devset-static}"
sed -n '/^burger|/,/^sortingNetworks|/p' "$here/devset_flow.sh" | while IFS='|' read -r name dir build run kind; do
    if [ $# -gt 0 ]; then case " $* " in *" $name "*) ;; *) continue ;; esac; fi
    w=$(mktemp -d)
    cp -r "$devset"/* "$w/"
    tcwd=$w/$dir tbuild=$build sub=""
    case $dir in cuda-samples/*) sub=${dir#cuda-samples/}/ tcwd=$w/cuda-samples tbuild="cd $sub && $build" ;; esac
    files=$(cd "$w/$dir" && { ls *.cu src/*.cu 2>/dev/null; } | sed "s|^|$sub|")
    # shellcheck disable=SC2086
    (cd "$tcwd" && timeout 900 "$cl1cc" capture --build "$tbuild" --run true --out "$w/cap" $files) \
        >"$out/$name.log" 2>&1
    cat "$w"/cap/*/instrumented >"$out/$name.instrumented" 2>/dev/null
    n=$(awk '/^instrumented /{ s += $2 } END { print s + 0 }' "$out/$name.instrumented")
    left=$(grep -h 'not.captured' "$out/$name.log" | sed 's/.*launch of \([^ <(]*\).*: \(.*\)/\1 (\2)/' | sort -u | tr '\n' ';')
    echo "$name: $n launch sites instrumented; left: ${left:-none}"
    rm -rf "$w"
done
