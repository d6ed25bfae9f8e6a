#!/bin/sh
# pch_equivalence.sh CL1CC FIXTURES EXPECTED: the model is the same with no
# precompiled headers, with a freshly built one, with the cached one, and
# with a corrupt one (which is noticed, removed and parsed around), and with
# a stale one: a header it holds changed since (noticed only as the AST is
# read; removed, the TU parsed again without it).
set -u
cl1cc=$1 fixtures=$2 expected=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_CACHE_DIR="$work/cache"
fail=0
cd "$fixtures" || exit 1
for name in templates multi_shared_device macros; do
    for mode in off fresh cached corrupt; do
        case $mode in
        off) CL1CC_NO_PCH=1 "$cl1cc" inspect --summary $name.cu >"$work/out" ;;
        fresh) rm -rf "$work/cache"; "$cl1cc" inspect --summary $name.cu >"$work/out" ;;
        cached)
            ls "$work"/cache/pch/*.pch >/dev/null 2>&1 || { echo "FAIL: $name: no PCH was cached"; fail=1; }
            "$cl1cc" inspect --summary $name.cu >"$work/out" ;;
        corrupt)
            for p in "$work"/cache/pch/*.pch; do printf 'garbage' >"$p"; done
            "$cl1cc" inspect --summary $name.cu >"$work/out" ;;
        esac
        if ! cmp -s "$expected/$name.summary" "$work/out"; then
            echo "FAIL: $name with PCH $mode"; diff "$expected/$name.summary" "$work/out" | head -5; fail=1
        fi
    done
    if ls "$work"/cache/pch/*.pch >/dev/null 2>&1; then echo "FAIL: $name: the corrupt PCH was kept"; fail=1; fi
done
# a stale PCH: a stand-in header it was built from changes
cp -r "$(dirname "$cl1cc")/../share/cl1cc/clang-stubs" "$work/stubs"
export CL1CC_STUB_DIR="$work/stubs"
rm -rf "$work/cache"
"$cl1cc" inspect --summary templates.cu >/dev/null
printf '/* changed */\n' >>"$work/stubs/surface_functions.h"
for round in stale rebuilt; do
    "$cl1cc" inspect --summary templates.cu >"$work/out"
    if ! cmp -s "$expected/templates.summary" "$work/out"; then
        echo "FAIL: templates with a $round PCH"; diff "$expected/templates.summary" "$work/out" | head -5; fail=1
    fi
done
[ $fail -eq 0 ] && echo "ok: same model without, with fresh, cached, corrupt and stale precompiled headers"
exit $fail
