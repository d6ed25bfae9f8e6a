#!/bin/sh
# golden.sh CL1CC RWC_PUT HERE NAME: with the variants of fixtures/NAME.variants
# in a fresh tuning database, `cl1cc rewrite --in-place` turns
# fixtures/NAME.cu into expected/NAME.cu byte for byte; a second rewrite
# changes nothing; `cl1cc revert` gives the fixture back byte for byte; the
# --patch output applies with `git apply` from the top of a work tree (made
# in a subfolder); the rewritten file compiles with nvcc; and the nvcc
# wrapper never splices a variant on top of a rewritten kernel.
# CL1CC_REGEN=1 writes the golden file instead of comparing.
set -u
cl1cc=$(readlink -f "$1") put=$(readlink -f "$2") here=$(readlink -f "$3") name=$4
fx=$here/fixtures expected=$here/expected/$name.cu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_DB="$work/tuning.db" SOURCE_DATE_EPOCH=1735689600
flags="-O3 -arch=sm_90"
fail=0
ok() { echo "ok: $name: $*"; }
bad() { echo "FAIL: $name: $*"; fail=1; }

cp "$fx/$name.cu" "$name.cu"
# a template kernel's variant applies to the instantiations it was verified
# on: fixtures/NAME.instances gives them ("KERNEL INST;INST...")
instances_of() { [ -f "$fx/$name.instances" ] && grep "^$1 " "$fx/$name.instances" | cut -d' ' -f2-; }
grep -v '^#' "$fx/$name.variants" | while read -r kernel variant speedup edits; do
    inst=$(instances_of "$kernel")
    if [ -n "$edits" ]; then
        "$put" "$name.cu" "$kernel" "$fx/$variant" "$speedup" --gpu "NVIDIA H200" --launch-edits "$edits" -- $flags
    elif [ -n "$inst" ]; then
        "$put" "$name.cu" "$kernel" "$fx/$variant" "$speedup" --gpu "NVIDIA H200" --instances "$inst" -- $flags
    else
        "$put" "$name.cu" "$kernel" "$fx/$variant" "$speedup" --gpu "NVIDIA H200" -- $flags
    fi >/dev/null || exit 1
done || { bad "db_put failed"; exit 1; }

# 1. the golden rewrite
"$cl1cc" rewrite --in-place "$name.cu" -- $flags 2>rewrite.err
rc=$?
if [ "${CL1CC_REGEN:-0}" = 1 ]; then
    cp "$name.cu" "$expected" && echo "regenerated $expected"
    exit 0
fi
if [ $rc -eq 0 ] && cmp -s "$name.cu" "$expected"; then
    ok "rewrite --in-place gives expected/$name.cu byte for byte ($(wc -l <rewrite.err) kernel(s) reported)"
else
    bad "rewrite --in-place: rc=$rc, differs from expected/$name.cu"; cat rewrite.err; diff "$expected" "$name.cu" | head -20
fi

# 2. idempotent: a rewritten kernel is recognised by its marker
cp "$name.cu" once.cu
"$cl1cc" rewrite --in-place "$name.cu" -- $flags 2>again.err; rc=$?
if [ $rc -eq 0 ] && cmp -s "$name.cu" once.cu && [ ! -s again.err ]; then ok "a second rewrite changes nothing"; else bad "second rewrite: rc=$rc"; cat again.err; fi
"$cl1cc" rewrite --check "$name.cu" -- $flags 2>/dev/null; rc=$?
[ $rc -eq 0 ] && ok "--check on the rewritten file: 0" || bad "--check on the rewritten file: $rc, want 0"
cp "$fx/$name.cu" fresh.cu
"$cl1cc" rewrite --check fresh.cu -- $flags 2>/dev/null; rc=$?
[ $rc -eq 3 ] && cmp -s fresh.cu "$fx/$name.cu" && ok "--check on the original: 3, file unchanged" || bad "--check on the original: $rc, want 3"

# 3. revert restores the original byte for byte, and again is a no-op
"$cl1cc" revert "$name.cu" 2>/dev/null; rc=$?
if [ $rc -eq 0 ] && cmp -s "$name.cu" "$fx/$name.cu"; then ok "revert restores the original byte for byte"; else bad "revert: rc=$rc"; diff "$fx/$name.cu" "$name.cu" | head; fi
"$cl1cc" revert "$name.cu" 2>/dev/null; rc=$?
[ $rc -eq 0 ] && cmp -s "$name.cu" "$fx/$name.cu" && ok "revert of an original changes nothing" || bad "second revert: rc=$rc"

# 4. --patch: paths from the top of the work tree, git apply takes it
mkdir -p repo/src
cp "$fx/$name.cu" repo/src/
(cd repo && git init -q && git add . && git -c user.email=t@example.com -c user.name=t commit -qm base) || { bad "git init"; exit 1; }
(cd repo/src && "$cl1cc" rewrite --patch "$name.cu" -- $flags >../x.patch 2>../patch.err); rc=$?
if [ $rc -eq 0 ] && head -n 1 repo/x.patch | grep -q "^diff --git a/src/$name.cu b/src/$name.cu\$"; then ok "--patch names src/$name.cu from the top level"; else bad "--patch: rc=$rc: $(head -n 1 repo/x.patch)"; cat repo/patch.err; fi
if (cd repo && git apply --check x.patch && git apply x.patch) && cmp -s repo/src/$name.cu "$expected"; then
    ok "git apply --check and git apply of the patch give the golden file"
else
    bad "the patch does not apply to give the golden file"
fi
(cd repo && "$cl1cc" revert --patch "src/$name.cu" >y.patch 2>/dev/null && git apply --check y.patch && git apply y.patch) && cmp -s repo/src/$name.cu "$fx/$name.cu" \
    && ok "revert --patch applies and gives the original" || bad "revert --patch"
(cd repo && git diff --quiet) && ok "the work tree is back at its commit" || bad "git diff after both patches is not empty"

# 5. the rewritten file compiles with nvcc
cp "$expected" rewritten.cu
if nvcc $flags -c rewritten.cu -o rewritten.o 2>nvcc.err; then ok "nvcc -c compiles the rewritten file"; else bad "nvcc -c of the rewritten file"; head nvcc.err; fi

# 6. the wrapper never splices on top of a rewritten kernel: not the entry
# the rewrite came from (its key changed with its text), nor an entry made
# for the rewritten text
# (through a file: objcopy 2.40 writes nothing to /dev/stdout)
devcode() { objcopy -O binary --only-section=.nv_fatbin "$1" "$1.fatbin" 2>/dev/null && cat "$1.fatbin"; }
CL1CC_VERBOSE=1 "$cl1cc" $flags -c rewritten.cu -o w1.o 2>w1.err
if ! grep -q "verified variant [0-9]" w1.err; then ok "wrapper: the old entries no longer apply"; else bad "wrapper spliced into the rewritten file"; cat w1.err; fi
first=$(grep -v '^#' "$fx/$name.variants" | head -n 1 | cut -d' ' -f1)
"$put" rewritten.cu "$first" "$fx/$(grep -v '^#' "$fx/$name.variants" | head -n 1 | cut -d' ' -f2)" 5.0 -- $flags >/dev/null || bad "db_put on the rewritten file"
CL1CC_VERBOSE=1 "$cl1cc" $flags -c rewritten.cu -o w2.o 2>w2.err
if grep -q "kernel $first: rewritten by cl1cc rewrite: not spliced again" w2.err && ! grep -q "verified variant [0-9]" w2.err; then
    ok "wrapper: an entry for the rewritten kernel is not spliced on top"
else
    bad "wrapper and an entry for the rewritten kernel:"; cat w2.err
fi
if devcode w2.o >s1 && devcode rewritten.o >s2 && [ -s s1 ] && cmp -s s1 s2; then ok "wrapper: same device code as plain nvcc of the rewritten file"; else bad "wrapper: device code differs from plain nvcc"; fi
"$cl1cc" rewrite --check rewritten.cu -- $flags 2>/dev/null; rc=$?
[ $rc -eq 0 ] && ok "rewrite --check: a rewritten kernel is not rewritten again" || bad "rewrite --check on a rewritten kernel with an entry: $rc"
exit $fail
