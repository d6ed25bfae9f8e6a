#!/bin/sh
# splice.sh CL1CC DB_PUT: with a verified variant in the tuning database,
# `cl1cc` compiles it in place of the original kernel (for the arch it was
# verified on only), with dependency files and diagnostics naming the
# user's files; every internal failure falls back to plain nvcc with one
# warning line and nvcc's own result.
set -u
cl1cc=$(readlink -f "$1") db_put=$(readlink -f "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_DB="$work/tuning.db" CL1CC_CACHE_DIR="$work/cache"
fail=0
flags="-O3 -arch=sm_90"
cat >k.cuh <<'CU'
#define FACTOR 2.0f
CU
cat >k.cu <<'CU'
#include "k.cuh"
// a comment the splice must keep
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= FACTOR;
}

__global__ void untouched(float *x) { x[0] = 1.0f; }

void go(float *x, int n) { scale<<<(n + 127) / 128, 128>>>(x, n); }
CU
cat >variant.cu <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = __fmul_rz(x[i], FACTOR);
}
CU
cat >variant_warns.cu <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int unused_in_variant = 0;
    if (i < n)
        x[i] = x[i] + x[i];
}
CU
cat >variant_broken.cu <<'CU'
__global__ void scale(float *x, int n)
{
    x[0] = = 1;
}
CU
# device code: the .nv_fatbin section is byte-identical between nvcc builds
# (into a file, then printed: as root, objcopy would replace /dev/stdout itself)
devcode() { rm -f "$work/.fatbin"; objcopy -O binary --only-section=.nv_fatbin "$1" "$work/.fatbin" 2>/dev/null && cat "$work/.fatbin"; }
same_as_nvcc() { # name, cl1cc object, nvcc object
    if devcode "$2" >s1 && devcode "$3" >s2 && [ -s s1 ] && cmp -s s1 s2; then echo "ok: $1: same device code as plain nvcc"; else echo "FAIL: $1: device code differs from plain nvcc"; fail=1; fi
}
nvcc $flags -c k.cu -o plain.o || exit 1

# 1. a verified variant applies
"$db_put" k.cu scale variant.cu 1.5 -- $flags || { echo "FAIL: db_put"; exit 1; }
CL1CC_VERBOSE=1 "$cl1cc" $flags -c k.cu -o spliced.o 2>verbose.err
rc=$?
if [ $rc -eq 0 ] && grep -q "kernel scale: verified variant" verbose.err; then echo "ok: variant applied"; else echo "FAIL: variant not applied (rc=$rc)"; cat verbose.err; fail=1; fi
# its code is the variant's: a round-to-zero multiply
"$cl1cc" $flags -ptx k.cu -o spliced.ptx && nvcc $flags -ptx k.cu -o plain.ptx
if grep -q "mul.rz.f32" spliced.ptx && ! grep -q "mul.rz.f32" plain.ptx; then
    echo "ok: the PTX holds the variant's code"
else
    echo "FAIL: the PTX does not hold the variant"; fail=1
fi
devcode spliced.o >s1; devcode plain.o >s2
[ -s s1 ] && ! cmp -s s1 s2 && echo "ok: the object's device code is not the original's" || { echo "FAIL: the object's device code is the original's"; fail=1; }
ls -a | grep -q '\.cl1cc-' && { echo "FAIL: a temporary was left: $(ls -a | grep '\.cl1cc-')"; fail=1; }
grep -q "a comment the splice must keep" k.cu || { echo "FAIL: the user's file changed"; fail=1; }

# 2. dependency files name the user's files
"$cl1cc" $flags -MD -c k.cu -o dep.o 2>/dev/null
nvcc $flags -MD -c k.cu -o depn.o
if [ -f dep.d ] && ! grep -q '\.cl1cc-' dep.d && grep -q '^dep.o : k.cu' dep.d && grep -q 'k.cuh' dep.d; then echo "ok: dependency file names k.cu and k.cuh"; else echo "FAIL: dependency file:"; cat dep.d 2>/dev/null | head -3; fail=1; fi
sed 's/depn.o/dep.o/' depn.d >depn.cmp
cmp -s dep.d depn.cmp && echo "ok: dependency file identical to nvcc's" || { echo "FAIL: dependency file differs from nvcc's"; diff dep.d depn.cmp | head -5; fail=1; }

# 3. another arch: the variant was verified for sm_90 only
"$cl1cc" -O3 -arch=sm_80 -c k.cu -o arch80.o && nvcc -O3 -arch=sm_80 -c k.cu -o plain80.o
same_as_nvcc "other arch" arch80.o plain80.o

# 4. diagnostics are nvcc's own (plain nvcc compiles the user's file first):
# the variant's warning is not the user's; under -Werror it makes the
# spliced compile fail, and plain nvcc's output is kept with one warning
"$db_put" k.cu scale variant_warns.cu 1.6 -- $flags
"$cl1cc" $flags -c k.cu -o warns.o 2>warns.err
nvcc $flags -c k.cu -o warns_plain.o 2>warns_plain.err
if cmp -s warns.err warns_plain.err; then echo "ok: stderr is nvcc's own, the variant's warning not shown"; else echo "FAIL: variant diagnostics:"; cat warns.err; fail=1; fi
"$cl1cc" $flags -Werror all-warnings -c k.cu -o werr.o 2>werr.err; rc=$?
if [ $rc -eq 0 ] && grep -q '^cl1cc: warning: the TU with verified variants' werr.err && [ "$(wc -l <werr.err)" = 1 ]; then echo "ok: -Werror and a warning in the variant: plain nvcc's output kept"; else echo "FAIL: -Werror, variant warns: rc=$rc"; cat werr.err; fail=1; fi
nvcc $flags -Werror all-warnings -c k.cu -o werr_plain.o
same_as_nvcc "-Werror, variant warns" werr.o werr_plain.o

# 5. a variant that does not compile: one warning, then plain nvcc
"$db_put" k.cu scale variant_broken.cu 9.0 -- $flags
"$cl1cc" $flags -c k.cu -o fallback.o 2>fallback.err
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '^cl1cc: warning' fallback.err)" = 1 ] && [ "$(wc -l <fallback.err)" = 1 ]; then echo "ok: broken variant: one warning: $(cat fallback.err)"; else echo "FAIL: broken variant: rc=$rc"; cat fallback.err; fail=1; fi
same_as_nvcc "broken variant falls back" fallback.o plain.o

# 6. a corrupt database: one warning, then plain nvcc
good_db=$CL1CC_DB
export CL1CC_DB="$work/corrupt.db"
head -c 4096 /dev/urandom >"$CL1CC_DB"
"$cl1cc" $flags -c k.cu -o corrupt.o 2>corrupt.err
rc=$?
if [ $rc -eq 0 ] && grep -q '^cl1cc: warning: .*corrupt.db' corrupt.err && [ "$(wc -l <corrupt.err)" = 1 ]; then echo "ok: corrupt database: $(cat corrupt.err)"; else echo "FAIL: corrupt database: rc=$rc"; cat corrupt.err; fail=1; fi
same_as_nvcc "corrupt database falls back" corrupt.o plain.o
export CL1CC_DB="$good_db"

# 7. no room for the spliced copy: one warning, then plain nvcc
CL1CC_TEST_FAULT=tempfile "$cl1cc" $flags -c k.cu -o notemp.o 2>notemp.err
rc=$?
if [ $rc -eq 0 ] && grep -q '^cl1cc: warning: cannot write a spliced copy' notemp.err; then echo "ok: unwritable temporary: $(cat notemp.err)"; else echo "FAIL: unwritable temporary: rc=$rc"; cat notemp.err; fail=1; fi
same_as_nvcc "unwritable temporary falls back" notemp.o plain.o

# 7b. a libclang crash (the frontend parses in a child): one warning line on
# top of nvcc's own output, then plain nvcc
nvcc $flags -c k.cu -o crash_plain.o 2>crash_plain.err
CL1CC_TEST_FAULT=parser-crash "$cl1cc" $flags -c k.cu -o crash.o 2>crash.err
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '^cl1cc: ' crash.err)" = 1 ] && grep -q 'libclang crashed' crash.err &&
    grep -v '^cl1cc: ' crash.err | cmp -s - crash_plain.err; then echo "ok: a parser crash: one line: $(grep '^cl1cc' crash.err)"; else echo "FAIL: parser crash: rc=$rc"; cat crash.err; fail=1; fi
same_as_nvcc "parser crash falls back" crash.o crash_plain.o

# 8. CL1CC_DISABLE ignores the database
CL1CC_DISABLE=1 "$cl1cc" $flags -c k.cu -o disabled.o
same_as_nvcc "CL1CC_DISABLE=1" disabled.o plain.o

# 9. the key: a change to something the kernel depends on (the macro in
# k.cuh), or to a flag that changes code, means no entry applies
"$db_put" k.cu scale variant.cu 1.5 -- $flags
cp k.cuh k.cuh.saved
printf '#define FACTOR 3.0f\n' >k.cuh
CL1CC_VERBOSE=1 "$cl1cc" $flags -c k.cu -o changed.o 2>changed.err
nvcc $flags -c k.cu -o changed_plain.o
same_as_nvcc "a dependency changed: nothing applies" changed.o changed_plain.o
cp k.cuh.saved k.cuh
"$cl1cc" -O2 -arch=sm_90 -c k.cu -o o2.o && nvcc -O2 -arch=sm_90 -c k.cu -o o2_plain.o
same_as_nvcc "other flags: nothing applies" o2.o o2_plain.o

# 10. the user's own error: nvcc's status and message come through
printf '__global__ void scale(float *x, int n) { x[0] = undeclared; }\n' >broken.cu
cp k.cu keep.cu
nvcc $flags -c broken.cu -o b1.o 2>nvcc_broken.err; want=$?
"$cl1cc" $flags -c broken.cu -o b2.o 2>cl1cc_broken.err; got=$?
if [ $want -eq $got ] && grep -q "$(head -n 1 nvcc_broken.err)" cl1cc_broken.err; then echo "ok: user error: status $got and nvcc's message"; else echo "FAIL: user error: nvcc $want, cl1cc $got"; cat cl1cc_broken.err; fail=1; fi
exit $fail
