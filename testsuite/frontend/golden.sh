#!/bin/sh
# golden.sh CL1CC FIXTURE.cu EXPECTED [-- NVCC-FLAGS]: `cl1cc inspect --summary`
# of the fixture, run from the fixture's folder, must equal EXPECTED.
set -u
cl1cc=$1 fixture=$2 expected=$3
shift 3
case $expected in /*) ;; *) expected=$(pwd)/$expected ;; esac
cd "$(dirname "$fixture")" || exit 1
actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
"$cl1cc" inspect --summary "$(basename "$fixture")" "$@" >"$actual"
rc=$?
if [ $rc -ne 0 ]; then
    echo "FAIL: cl1cc inspect exited $rc on $fixture"
    exit 1
fi
if ! diff -u "$expected" "$actual"; then
    echo "FAIL: $fixture: summary differs from $expected"
    exit 1
fi
echo "ok: $fixture"
