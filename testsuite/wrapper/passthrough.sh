#!/bin/sh
# passthrough.sh CL1CC: with nothing to apply, `cl1cc ARGS` is `nvcc ARGS`:
# same exit status, same stdout and stderr, same output files (compared as
# SASS and PTX, since object bytes differ between any two nvcc runs), same
# dependency files.  Also: CL1CC_DISABLE, the launcher form, and a cl1cc
# installed as "nvcc" first on PATH that must not run itself.
set -u
cl1cc=$(readlink -f "$1")
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
# nvcc as the user's PATH names it: nvcc prints paths relative to how it
# was invoked, so resolving symlinks here would make a difference of our own
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
cd "$work" || exit 1
cat >k.cu <<'CU'
#include "k.cuh"
__global__ void scale(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= FACTOR; }
void go(float *x, int n) { scale<<<1, 128>>>(x, n); }
CU
printf '#define FACTOR 2.0f\n' >k.cuh
cat >broken.cu <<'CU'
__global__ void broken(float *x) { x[0] = undeclared_thing; }
CU
printf 'int host_only(int x) { return x + 1; }\n' >h.cpp

# run TOOL ARGS in folder $1, keeping status, stdout, stderr
run() {
    dir=$1 tool=$2
    shift 2
    mkdir -p "$dir" && cp k.cu k.cuh broken.cu h.cpp "$dir"/
    (cd "$dir" && "$tool" "$@" >stdout 2>stderr; echo $? >status)
}
# (into a file, then printed: as root, objcopy would replace /dev/stdout itself)
devcode() { rm -f "$work/.fatbin"; objcopy -O binary --only-section=.nv_fatbin "$1" "$work/.fatbin" 2>/dev/null && cat "$work/.fatbin"; }
same_outputs() { # name: compare folders a and b
    before=$fail
    for f in status stdout stderr; do
        if ! cmp -s "a/$f" "b/$f"; then
            # nvcc names its temporaries randomly; nothing else may differ
            # nor the two folders' own paths
            for d in a b; do
                sed -e 's/tmpxft_[0-9a-f_]*/tmpxft/g' -e "s#$work/$d/#WORK/#g" "$d/$f" >$d/$f.norm
            done
            cmp -s "a/$f.norm" "b/$f.norm" || { echo "FAIL: $1: $f differs"; diff a/$f b/$f | head -5; fail=1; return; }
        fi
    done
    for f in $(cd a && ls); do
        case $f in status|stdout|stderr|*.norm|k.cu|k.cuh|broken.cu|h.cpp) continue ;; esac
        [ -e "b/$f" ] || { echo "FAIL: $1: nvcc wrote $f, cl1cc did not"; fail=1; continue; }
        case $f in
        *.o|a.out|app)
            # the device code: nvcc's fatbin section is byte-identical between
            # builds of the same code, unlike the rest of the object
            devcode "a/$f" >a/$f.dev; devcode "b/$f" >b/$f.dev
            if [ -s "a/$f.dev" ]; then
                cmp -s "a/$f.dev" "b/$f.dev" || { echo "FAIL: $1: device code of $f differs"; fail=1; }
            else # host code only (a .cpp): the host compiler's output is reproducible
                [ ! -s "b/$f.dev" ] && cmp -s "a/$f" "b/$f" || { echo "FAIL: $1: $f differs"; fail=1; }
            fi
            rm -f a/$f.dev b/$f.dev ;;
        *) cmp -s "a/$f" "b/$f" || { echo "FAIL: $1: $f differs"; fail=1; } ;;
        esac
    done
    for f in $(cd b && ls); do
        [ -e "a/$f" ] || { echo "FAIL: $1: cl1cc wrote $f, nvcc did not"; fail=1; }
    done
    [ $fail -eq "$before" ] && echo "ok: $1"
}
case_() { # name ARGS...
    name=$1
    shift
    rm -rf a b
    run a "$nvcc" "$@"
    run b "$cl1cc" "$@"
    same_outputs "$name"
}
case_ "compile -c" -c k.cu
case_ "compile -o" -c k.cu -o named.o
case_ "arch and -O3" -O3 -arch=sm_90 -c k.cu -o k.o
case_ "gencode with commas" -gencode arch=compute_90,code=[sm_90,compute_90] -c k.cu
case_ "-Xcompiler list" -Xcompiler -Wall,-Wextra -c k.cu
case_ "dependency file -MD" -MD -c k.cu -o k.o
case_ "dependency file -MD -MF -MT" -MD -MF deps.d -MT custom_target -c k.cu -o k.o
case_ "-M to stdout" -M k.cu
case_ "-E to stdout" -E k.cu
case_ "-ptx" -ptx k.cu
case_ "-cubin" -arch=sm_90 -cubin k.cu
case_ "link two inputs" k.cu h.cpp -o app
case_ "host-only .cpp" -c h.cpp
case_ "compile error (exit status and message)" -c broken.cu
case_ "unknown option" --no-such-option -c k.cu
case_ "--version" --version
case_ "--dryrun" --dryrun -c k.cu

# response file, as CMake with Ninja writes it: cl1cc must hand nvcc the
# same command either way
printf -- '-c k.cu -o rsp.o\n' >args.rsp
rm -rf a b; mkdir -p a b; cp args.rsp a/; cp args.rsp b/
run a "$nvcc" -optf args.rsp; run b "$cl1cc" -optf args.rsp; same_outputs "options file"

# CL1CC_DISABLE: pure pass-through
rm -rf a b; run a "$nvcc" -c k.cu; CL1CC_DISABLE=1 run b "$cl1cc" -c k.cu; same_outputs "CL1CC_DISABLE=1"

# the launcher form: cl1cc /path/to/nvcc ARGS
rm -rf a b; run a "$nvcc" -c k.cu; run b "$cl1cc" "$nvcc" -c k.cu; same_outputs "launcher form"

# cl1cc installed as nvcc first on PATH, as a symlink and as a copy
mkdir -p shim/link shim/copy
ln -s "$cl1cc" shim/link/nvcc
cp "$cl1cc" shim/copy/nvcc
cp -r "$(dirname "$cl1cc")/../share" shim/ 2>/dev/null
for kind in link copy; do
    rm -rf a b; run a "$nvcc" -c k.cu
    PATH="$work/shim/$kind:$(dirname "$nvcc"):$PATH" timeout 60 sh -c "cd b 2>/dev/null || mkdir b; cd b && cp ../k.cu ../k.cuh ../broken.cu ../h.cpp . && nvcc -c k.cu >stdout 2>stderr; echo \$? >status"
    same_outputs "cl1cc as nvcc on PATH ($kind)"
done

# CL1CC_NVCC naming cl1cc itself is refused, not a loop
err=$(CL1CC_NVCC="$cl1cc" timeout 20 "$cl1cc" -c k.cu 2>&1)
rc=$?
if [ $rc -eq 127 ] && printf '%s' "$err" | grep -q "is cl1cc itself"; then echo "ok: CL1CC_NVCC=cl1cc refused"; else echo "FAIL: CL1CC_NVCC=cl1cc: rc=$rc $err"; fail=1; fi
exit $fail
