#!/bin/sh
# bad_inputs.sh CL1CC BAD-DIR: every bad input gets exit status 1 and a
# diagnostic naming the file with a line and column; nothing crashes.
set -u
cl1cc=$1 dir=$2
fail=0
check() { # file, expected message fragment
    err=$("$cl1cc" inspect --summary "$1" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -ne 1 ]; then
        echo "FAIL: $1: exit status $rc, expected 1"; fail=1; return
    fi
    if ! printf '%s\n' "$err" | grep -q "^$1:[0-9][0-9]*:[0-9][0-9]*: error: .*$2"; then
        echo "FAIL: $1: no file:line:col diagnostic containing '$2' in:"; printf '%s\n' "$err"; fail=1; return
    fi
    echo "ok: $1: $(printf '%s\n' "$err" | head -n 1)"
}
cd "$dir" || exit 1
check syntax_error.cu "expected ';'"
check missing_header.cu "file not found"
check empty.cu "empty file"
check binary.cu "binary data"
check not_cuda.cu "unknown type name"
# a missing file and a folder: named, no line to give
for path in no_such_file.cu .; do
    err=$("$cl1cc" inspect --summary "$path" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -ne 1 ] || ! printf '%s\n' "$err" | grep -q "^$path: error: "; then
        echo "FAIL: $path: rc=$rc, stderr: $err"; fail=1
    else
        echo "ok: $path: $err"
    fi
done
exit $fail
