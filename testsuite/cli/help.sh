#!/bin/sh
# help.sh CL1CC: every command's usage through driver/main.c's table:
# `cl1cc X --help` and `cl1cc X -h` exit 0 and print X's own usage (revert
# once printed rewrite's, judge called --help an unknown option); a usage
# error (an unknown option) exits 2 with that same text on stderr (the
# table is its one home: judge, tune, capture, llm-propose and pool-run once
# kept copies of their own);
# --cl1-help lists every command and every CL1CC_* variable; a bare
# `cl1cc` points at --cl1-help.
set -u
cl1cc=$(readlink -f "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
commands="inspect tune judge capture llm-propose pool-run rewrite revert ci"
for c in $commands; do
    for flag in --help -h; do
        "$cl1cc" $c $flag >out 2>err
        rc=$?
        if [ $rc -eq 0 ] && grep -q "^usage: cl1cc $c " out; then
            ok "cl1cc $c $flag: its usage"
        else
            bad "cl1cc $c $flag: rc=$rc"; cat out err
        fi
        others=$(grep -o '^ *\(usage:\)\{0,1\} *cl1cc [a-z-]*' out | sed 's/.*cl1cc //' | sort -u)
        [ "$others" = "$c" ] || bad "cl1cc $c $flag names other commands' usage: $others"
    done
    "$cl1cc" $c --help >usage 2>/dev/null
    "$cl1cc" $c --no-such-option >/dev/null 2>err
    rc=$?
    if [ $rc -eq 2 ] && tail -n "$(wc -l <usage)" err | cmp -s - usage; then
        ok "cl1cc $c --no-such-option: exit 2, the --help text"
    else
        bad "cl1cc $c --no-such-option: rc=$rc, or not --help's text"; diff usage err
    fi
done
"$cl1cc" revert --help >out 2>&1
grep -q "cl1cc rewrite" out && bad "revert --help prints rewrite's usage" || ok "revert --help is revert's alone"
"$cl1cc" judge --help >out 2>&1
grep -q "unknown option" out && bad "judge --help: unknown option" || ok "judge --help is no unknown option"

"$cl1cc" --cl1-help >help 2>&1 || bad "--cl1-help failed"
for c in $commands; do
    grep -q "^  $c  *[a-z]" help || bad "--cl1-help does not list $c"
done
for v in DISABLE VERBOSE NVCC DB DB_BUSY_MS CACHE_DIR NO_PCH STUB_DIR CLANG_RESOURCE_DIR MAX_SOURCE_MB \
         SLURM_BIN_DIR LLM_API_KEY CAPTURE_FILES CAPTURE_DIR CAPTURE_LIMIT CI_TUNER TEST_FAULT; do
    grep -q "^  CL1CC_$v[= ]" help || bad "--cl1-help does not list CL1CC_$v"
done
[ $fail -eq 0 ] && ok "--cl1-help lists the commands and the variables"

"$cl1cc" >out 2>err
rc=$?
if [ $rc -ne 0 ] && grep -q -- "--cl1-help" err; then
    ok "a bare cl1cc points at --cl1-help"
else
    bad "bare cl1cc: rc=$rc"; cat out err
fi
exit $fail
