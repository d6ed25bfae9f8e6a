#!/bin/sh
# compdb.sh CL1CC FIXTURES EXPECTED: flags come from a compile_commands.json
# (as CMake writes it for nvcc) when inspect is given -p BUILD-DIR.
set -u
cl1cc=$1 fixtures=$2 expected=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/compile_commands.json" <<JSON
[
{
  "directory": "$fixtures",
  "command": "/usr/local/cuda/bin/nvcc -DUSE_WIDE -Iinclude -O3 -arch=sm_90 -x cu -c $fixtures/flags_needed.cu -o flags_needed.o",
  "file": "$fixtures/flags_needed.cu"
}
]
JSON
cd "$fixtures" || exit 1
"$cl1cc" inspect --summary -p "$work" flags_needed.cu >"$work/actual" || { echo "FAIL: inspect -p exited $?"; exit 1; }
diff -u "$expected" "$work/actual" || { echo "FAIL: flags from compile_commands.json differ"; exit 1; }
# without the database the file does not parse: the flags really came from it
if "$cl1cc" inspect --summary flags_needed.cu >/dev/null 2>&1; then
    echo "FAIL: flags_needed.cu parsed without its flags"; exit 1
fi
echo "ok: flags from compile_commands.json"
