#!/bin/sh
# errors.sh CL1CC RWC_PUT HERE: bad input gets a clear message (file:line
# where there is a line) and leaves the file as it was: a missing file, a
# file that does not parse, a damaged or edited marker, an unwritable file;
# the arch comes from --arch, the flags or nvidia-smi, else an error asking
# for --arch; a launch edit that cannot be made leaves the kernel alone;
# entries for other flags do not apply; usage errors exit 2.
set -u
cl1cc=$(readlink -f "$1") put=$(readlink -f "$2")
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_DB="$work/tuning.db"
flags="-O3 -arch=sm_90"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
expect() { # name, want-rc, got-rc, stderr file, grep pattern
    if [ "$3" -eq "$2" ] && grep -q -- "$5" "$4"; then ok "$1: status $3: $(grep -- "$5" "$4" | head -n 1)"; else bad "$1: status $3 (want $2), stderr:"; cat "$4"; fi
}
cat >k.cu <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

void go(float *x, int n) { scale<<<(n + 127) / 128, 128>>>(x, n); }
CU
cat >v.cu <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] + x[i];
}
CU
"$put" k.cu scale v.cu 1.5 -- $flags >/dev/null || { bad "db_put"; exit 1; }
cp k.cu k.orig

# 1. a missing file; the other files are still done
cp k.cu good.cu
"$cl1cc" rewrite --in-place no_such.cu good.cu -- $flags 2>e1; rc=$?
expect "missing file" 1 $rc e1 "^no_such.cu: error: cannot read it: No such file or directory"
grep -q cl1cc-optimized good.cu && ok "missing file: the good file beside it is rewritten" || bad "missing file: the good file was not rewritten"

# 2. a file that does not parse: file:line:col, unchanged
sed 's/x\[i\] \*= 2.0f;/x[i] *= 2.0f/' k.cu >broken.cu
cp broken.cu broken.orig
"$cl1cc" rewrite --in-place broken.cu -- $flags 2>e2; rc=$?
expect "unparsable file" 1 $rc e2 "^broken.cu:[0-9][0-9]*:[0-9][0-9]*: error: "
grep -q "^broken.cu: error: not rewritten" e2 && cmp -s broken.cu broken.orig && ok "unparsable file: unchanged" || bad "unparsable file changed or no summary line"
"$cl1cc" rewrite --patch broken.cu -- $flags >p2 2>/dev/null; rc=$?
[ $rc -eq 1 ] && [ ! -s p2 ] && ok "unparsable file: --patch prints no patch, status 1" || bad "unparsable file --patch: rc=$rc"

# 3. revert: a damaged marker, an edited kernel: file:line, unchanged
cp k.orig r.cu
"$cl1cc" rewrite --in-place r.cu -- $flags 2>/dev/null || bad "rewrite r.cu"
cp r.cu r.rewritten
line=$(grep -n 'zlib-base64:' r.cu | cut -d: -f1)
sed "$((line + 1))s/^ \* ./ * !/" r.cu >damaged.cu
cp damaged.cu damaged.orig
"$cl1cc" revert damaged.cu 2>e3; rc=$?
expect "damaged marker" 1 $rc e3 "^damaged.cu:1: error: a damaged cl1cc marker"
cmp -s damaged.cu damaged.orig && ok "damaged marker: unchanged" || bad "damaged marker: the file changed"
sed 's/x\[i\] + x\[i\]/x[i] + x[i] + 0.0f/' r.rewritten >edited.cu
cp edited.cu edited.orig
"$cl1cc" revert edited.cu 2>e4; rc=$?
expect "edited kernel" 1 $rc e4 "^edited.cu:1: error: the kernel after this cl1cc marker was edited"
cmp -s edited.cu edited.orig && ok "edited kernel: unchanged" || bad "edited kernel: the file changed"
"$cl1cc" revert no_such.cu 2>e5; rc=$?
expect "revert of a missing file" 1 $rc e5 "^no_such.cu: error: cannot read it"

# 4. a file that cannot be written stays as it was (root writes anywhere)
if [ "$(id -u)" -ne 0 ]; then
    mkdir ro && cp k.orig ro/k.cu && chmod 555 ro
    "$cl1cc" rewrite --in-place ro/k.cu -- $flags 2>e6; rc=$?
    expect "read-only folder" 1 $rc e6 "^ro/k.cu: error: not rewritten: cannot write it"
    cmp -s ro/k.cu k.orig && [ "$(ls -a ro | wc -l)" = 3 ] && ok "read-only folder: unchanged, no temporary left" || bad "read-only folder"
    chmod 755 ro
else
    echo "ok: read-only folder: not checked as root (root writes anyway)"
fi

# 5. the arch: --arch, the flags, nvidia-smi, else nvcc's default (sm_75):
# never an error without a GPU; nothing to apply is silent
mkdir -p nogpu gpu
printf '#!/bin/sh\necho "No devices were found" >&2\nexit 6\n' >nogpu/nvidia-smi
printf '#!/bin/sh\necho "9.0, NVIDIA H200"\n' >gpu/nvidia-smi
chmod +x nogpu/nvidia-smi gpu/nvidia-smi
cp k.orig a.cu
"$put" a.cu scale v.cu 1.7 --arch sm_90 -- -O3 >/dev/null || bad "db_put --arch"
PATH="$work/nogpu:$PATH" "$cl1cc" rewrite --check a.cu -- -O3 >o7 2>e7; rc=$?
if [ $rc -eq 0 ] && [ ! -s e7 ] && [ ! -s o7 ]; then ok "no GPU and no --arch: nvcc's default sm_75 has no entry: status 0, silent"; else bad "no GPU and no --arch: status $rc"; cat o7 e7; fi
"$put" a.cu scale v.cu 1.3 --arch sm_75 -- -O3 >/dev/null || bad "db_put --arch sm_75"
PATH="$work/nogpu:$PATH" "$cl1cc" rewrite --check a.cu -- -O3 2>e7b; rc=$?
expect "no GPU and no --arch: nvcc's default arch's entry" 3 $rc e7b "x1.30 on sm_75"
PATH="$work/nogpu:$PATH" "$cl1cc" rewrite --check a.cu -- -O3 -arch=native >o7c 2>e7c; rc=$?
if [ $rc -eq 0 ] && [ ! -s e7c ]; then ok "-arch=native without a GPU: nothing applies, status 0"; else bad "-arch=native without a GPU: status $rc"; cat e7c; fi
PATH="$work/gpu:$PATH" "$cl1cc" rewrite --check a.cu -- -O3 2>e8; rc=$?
expect "the GPU from nvidia-smi" 3 $rc e8 "kernel scale can be rewritten .* on sm_90"
PATH="$work/nogpu:$PATH" "$cl1cc" rewrite --check --arch sm_90 a.cu -- -O3 2>e9; rc=$?
expect "--arch sm_90" 3 $rc e9 "kernel scale can be rewritten"
PATH="$work/nogpu:$PATH" "$cl1cc" rewrite --check a.cu -- $flags 2>e10; rc=$?
expect "the arch from the flags" 3 $rc e10 "kernel scale can be rewritten"
"$cl1cc" rewrite --check --arch sm_80 a.cu -- $flags 2>e11; rc=$?
[ $rc -eq 0 ] && ok "another arch: nothing applies" || bad "--arch sm_80: rc=$rc"
"$cl1cc" rewrite --check --arch 90 a.cu 2>e12; rc=$?
expect "a bad --arch" 2 $rc e12 "not a real GPU arch"

# 6. entries for other flags do not apply; files may follow the nvcc flags
cp k.orig f.cu
"$cl1cc" rewrite --in-place f.cu -- -O2 -arch=sm_90 2>/dev/null; rc=$?
[ $rc -eq 0 ] && cmp -s f.cu k.orig && ok "other flags (-O2): nothing applies" || bad "other flags: rc=$rc or changed"
"$cl1cc" rewrite --in-place -- $flags f.cu 2>/dev/null; rc=$?
[ $rc -eq 0 ] && grep -q cl1cc-optimized f.cu && ok "files after the nvcc flags (as pre-commit passes them)" || bad "files after --: rc=$rc"

# 7. a launch edit that cannot be made: the kernel stays, with a warning
cp k.orig l.cu
"$put" l.cu scale v.cu 3.0 --launch-edits '[{"site": 0, "field": "shmem", "text": "1024"}]' -- $flags >/dev/null
"$cl1cc" rewrite --in-place l.cu -- $flags 2>e13; rc=$?
expect "launch edit of an absent argument" 0 $rc e13 "^cl1cc: warning: l.cu:1: kernel scale: its verified variant is not applied: launch edit 0: the shmem of the launch at line 8 is not written"
cmp -s l.cu k.orig && ok "launch edit of an absent argument: unchanged" || bad "launch edit of an absent argument: changed"
"$put" l.cu scale v.cu 3.5 --launch-edits '[{"site": 4, "field": "block", "text": "64"}]' -- $flags >/dev/null
"$cl1cc" rewrite --in-place l.cu -- $flags 2>e14; rc=$?
expect "launch edit of a missing site" 0 $rc e14 "names launch site 4 of 1"
"$put" l.cu scale v.cu 4.0 --launch-edits '[{"site": 0, "field": "config", "text": "<<<(n + 63) / 64, 64>>>"}]' -- $flags >/dev/null
"$cl1cc" rewrite --in-place l.cu -- $flags 2>e15; rc=$?
grep -q 'scale/\* cl1cc-launch was=PDw8KG4gKyAxMjcpIC8gMTI4LCAxMjg+Pj4= len=23 sha=[0-9a-f]* \*/<<<(n + 63) / 64, 64>>>(x, n)' l.cu \
    && ok "launch edit of the whole configuration" || { bad "config launch edit"; grep scale l.cu; cat e15; }
"$cl1cc" revert l.cu 2>/dev/null && cmp -s l.cu k.orig && ok "revert of a launch edit" || bad "revert of a launch edit"
# the wrapper does not edit launches: it does not splice such a variant
CL1CC_VERBOSE=1 "$cl1cc" $flags -c l.cu -o l.o 2>e15b; rc=$?
expect "the wrapper and a variant with launch edits" 0 $rc e15b "kernel scale: verified variant [0-9]* needs launch edits: not spliced"

# 8. usage
"$cl1cc" rewrite k.cu 2>e16; rc=$?
expect "no mode" 2 $rc e16 "say --in-place, --patch or --check"
"$cl1cc" rewrite --in-place --bogus k.cu 2>e17; rc=$?
expect "unknown option" 2 $rc e17 "unknown option '--bogus'"
"$cl1cc" rewrite --patch 2>e18; rc=$?
expect "no files" 2 $rc e18 "no files"
cmp -s k.cu k.orig && ok "usage errors leave files alone" || bad "a usage error changed k.cu"

# 9. no database: nothing to apply, no error
CL1CC_DB="$work/none.db" "$cl1cc" rewrite --check k.cu -- $flags 2>e19; rc=$?
[ $rc -eq 0 ] && [ ! -e none.db ] && ok "no database: nothing to apply, none created" || bad "no database: rc=$rc"
head -c 4096 /dev/urandom >corrupt.db
CL1CC_DB="$work/corrupt.db" "$cl1cc" rewrite --check k.cu -- $flags 2>e20; rc=$?
expect "a corrupt database" 1 $rc e20 "corrupt.db"
exit $fail
