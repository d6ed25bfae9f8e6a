#!/bin/sh
# isolation.sh CL1CC FIXTURES: libclang runs in a child process on a large
# stack: code nested past the usual stack still reads, a parser crash is one
# diagnostic line (never cl1cc's own death), and the precompiled-header
# cache stays within its cap, least recently used first out.
set -u
cl1cc=$1 fixtures=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

# a 6000-branch else-if chain and a 100000-term sum: in-process, libclang's
# parse of this overflows an 8 MB stack and kills the process
python3 - "$work/deep.cu" <<'PY'
import sys
lines = ["__global__ void deep(int *o, int v) {", "  if (v == 0) o[0] = 0;"]
lines += [f"  else if (v == {i}) o[0] = {i};" for i in range(1, 6000)]
lines += ["}", "__global__ void sum(float *o, const float *a) {",
          "  o[0] = " + " + ".join(f"a[{i % 64}]" for i in range(100000)) + ";", "}",
          "int main() { int *d = 0; deep<<<1, 1>>>(d, 3); return 0; }"]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
out=$("$cl1cc" inspect --summary "$work/deep.cu" 2>"$work/deep.err")
rc=$?
if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -q "^file deep.cu: 2 kernels, 1 launches"; then
    echo "FAIL: deeply nested code: rc=$rc"; cat "$work/deep.err"; fail=1
else
    echo "ok: deeply nested code reads: $(printf '%s\n' "$out" | head -n 1)"
fi

# a crash of the parser: one line naming the file, a failure status, and
# cl1cc itself alive to say it
CL1CC_TEST_FAULT=parser-crash "$cl1cc" inspect --summary "$fixtures/single.cu" \
    >"$work/crash.out" 2>"$work/crash.err"
rc=$?
lines=$(wc -l <"$work/crash.err")
if [ $rc -eq 0 ] || [ $rc -ge 128 ] || [ "$lines" -ne 1 ] ||
   ! grep -q "single.cu: error: libclang crashed reading it (signal 11" "$work/crash.err"; then
    echo "FAIL: parser crash: rc=$rc, $lines stderr lines:"; cat "$work/crash.err"; fail=1
else
    echo "ok: parser crash: rc=$rc: $(cat "$work/crash.err")"
fi

# a crash only while the precompiled headers are in use (a PCH cut short
# and mapped: SIGBUS): the TU is parsed again without them, no error
CL1CC_TEST_FAULT=parser-crash-pch "$cl1cc" inspect --summary "$fixtures/single.cu" \
    >"$work/pch.out" 2>"$work/pch.err"
rc=$?
if [ $rc -ne 0 ] || [ -s "$work/pch.err" ] || ! grep -q "^file single.cu" "$work/pch.out"; then
    echo "FAIL: a crash with the PCH was not parsed around: rc=$rc"; cat "$work/pch.err"; fail=1
else
    echo "ok: a crash with the PCH: parsed again without it: $(head -n 1 "$work/pch.out")"
fi

# the PCH cache: with a 1 MB cap only the PCH just used stays; a stale
# temporary of a killed process goes
cache=$work/cache
mkdir -p "$cache/pch"
: >"$cache/pch/old.pch.4242.tmp"
touch -d '2 hours ago' "$cache/pch/old.pch.4242.tmp"
for define in -DFIRST -DSECOND; do
    CL1CC_CACHE_DIR=$cache CL1CC_PCH_CACHE_MB=1 "$cl1cc" inspect --summary \
        "$fixtures/single.cu" -- "$define" >/dev/null || { echo "FAIL: inspect with $define"; fail=1; }
done
n=$(ls "$cache/pch" | grep -c '\.pch$')
if [ "$n" -ne 1 ] || [ -e "$cache/pch/old.pch.4242.tmp" ]; then
    echo "FAIL: PCH cache over its cap: $n PCHs:"; ls -l "$cache/pch"; fail=1
else
    echo "ok: PCH cache capped: $n PCH"
fi
# without a cap both stay
CL1CC_CACHE_DIR=$cache "$cl1cc" inspect --summary "$fixtures/single.cu" -- -DFIRST >/dev/null
n=$(ls "$cache/pch" | grep -c '\.pch$')
if [ "$n" -ne 2 ]; then
    echo "FAIL: the default cap kept $n PCHs, expected 2"; ls -l "$cache/pch"; fail=1
else
    echo "ok: default cap keeps both"
fi
exit $fail
