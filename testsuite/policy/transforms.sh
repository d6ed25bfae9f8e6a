#!/bin/sh
# transforms.sh POL_TOOL SRC_DIR: every case of cases.txt gives exactly its
# expected kernel text (a transform that refuses says why), and every file
# with a transformed kernel compiles with nvcc.  CL1CC_UPDATE_GOLDEN=1
# rewrites the expected files.
set -u
tool=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 cases=0 compiled=0
while read -r fixture kernel combo flags; do
    case "$fixture" in ''|'#'*) continue ;; esac
    cases=$((cases + 1))
    name="$kernel.$combo"
    [ -n "$flags" ] && name="$name$(echo "$flags" | tr -d ' -' | tr ',' 'x')"
    expected="$src/expected/$name.cu"
    # shellcheck disable=SC2086
    if ! "$tool" "$src/fixtures/$fixture" "$kernel" "$combo" $flags >"$tmp/got" 2>"$tmp/err"; then
        echo "FAIL $name: pol_tool failed: $(cat "$tmp/err")"; fail=1; continue
    fi
    if [ "${CL1CC_UPDATE_GOLDEN:-0}" = 1 ]; then cp "$tmp/got" "$expected"; fi
    if ! cmp -s "$tmp/got" "$expected"; then
        echo "FAIL $name: differs from $expected:"; diff "$expected" "$tmp/got" | head -20; fail=1
        continue
    fi
    grep -q '^refused: ' "$tmp/got" && continue
    # shellcheck disable=SC2086
    "$tool" "$src/fixtures/$fixture" "$kernel" "$combo" $flags --whole-file >"$tmp/$name.cu"
    if ! nvcc -c -arch=sm_90 -o "$tmp/$name.o" "$tmp/$name.cu" 2>"$tmp/nvcc.err"; then
        echo "FAIL $name: the transformed file does not compile:"; cat "$tmp/nvcc.err"; fail=1
        continue
    fi
    compiled=$((compiled + 1))
done <"$src/cases.txt"
# a CRLF file stays CRLF, inserted lines included
"$tool" "$src/fixtures/crlf.cu" crlf_sum regacc+unroll4 --whole-file >"$tmp/crlf.cu"
cr=$(printf '\r')
if [ "$(grep -c "$cr\$" "$tmp/crlf.cu")" != "$(wc -l <"$tmp/crlf.cu")" ] ||
   [ "$(wc -l <"$tmp/crlf.cu")" -le "$(wc -l <"$src/fixtures/crlf.cu")" ]; then
    echo "FAIL crlf: a line of the transformed CRLF file ends without CR"; cat -A "$tmp/crlf.cu"; fail=1
fi
echo "policy transforms: $cases cases, $compiled transformed files compiled"
[ "$cases" -ge 15 ] || { echo "FAIL: too few cases ran"; fail=1; }
exit $fail
