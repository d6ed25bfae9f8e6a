#!/bin/sh
# nvcc_check.sh TEST_PROGRAM NVCC: runs real nvcc without -o for each phase in
# a temporary directory and checks that the file nvcc_default_output names is
# the one nvcc wrote (with several phase options too: nvcc ranks them), and
# that the language the parser gives each input under -x is the one nvcc
# compiles it as.  Exits 77 (skipped) when nvcc is not there.
set -u
prog=$1
nvcc=${2:-nvcc}
command -v "$nvcc" >/dev/null 2>&1 || { echo "nvcc not found: skipped"; exit 77; }
dir=$(mktemp -d /tmp/cl1cc-wrapper-nvcc-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
mkdir sub
printf '__global__ void k(int *p) { *p = 1; }\nint main() { k<<<1, 1>>>(0); return 0; }\n' > sub/x.cu
printf '__global__ void k2(int *p) { *p = 2; }\n' > sub/y.cu
printf 'int host_only(void) { return 3; }\n' > sub/h.cpp
fail=0
check() {
    # $@: nvcc arguments without -o
    rm -rf out && mkdir out || exit 1
    names=$(cd out && "$prog" default-output "$@") || { echo "FAIL: parse $*"; fail=1; return; }
    (cd out && "$nvcc" "$@" >/dev/null 2>&1) || { echo "FAIL: nvcc $* did not succeed"; fail=1; return; }
    for n in $names; do
        if [ -f "out/$n" ]; then
            echo "ok: nvcc $* -> $n"
        else
            echo "FAIL: nvcc $*: expected $n, found: $(ls out | tr '\n' ' ')"
            fail=1
        fi
    done
}
check -c ../sub/x.cu
check -dc ../sub/x.cu
check -c ../sub/x.cu ../sub/y.cu
check -c ../sub/h.cpp
check -x cu -c ../sub/h.cpp
check -ptx ../sub/x.cu
check -cubin ../sub/x.cu
check -fatbin ../sub/x.cu
check ../sub/x.cu
# several phase options: the earliest stop wins, in any order
check -c -ptx ../sub/x.cu
check -ptx -c ../sub/x.cu
check -fatbin -cubin ../sub/x.cu
check -c -cuda ../sub/x.cu
check -optix-ir ../sub/x.cu
check -c -rdc=true ../sub/x.cu
"$nvcc" -dc -o sub/x.o sub/x.cu && "$nvcc" -dc -o sub/y.o sub/y.cu || fail=1
check -lib ../sub/x.o ../sub/y.o
check -dlink ../sub/x.o ../sub/y.o
# -E and -M write to stdout: no file
[ "$(cd out && "$prog" default-output -E ../sub/x.cu)" = "-" ] || { echo "FAIL: -E names a file"; fail=1; }
[ "$(cd out && "$prog" default-output -M ../sub/x.cu)" = "-" ] || { echo "FAIL: -M names a file"; fail=1; }
# -x is not positional: the last one applies to every input.  g.cpp holds a
# kernel, so it compiles only as CUDA; x.cu compiles only as CUDA too.
printf '__global__ void kg(int *p) { *p = 4; }\n' > sub/g.cpp
lang() {
    # $1: expected languages (one line); $2: "ok" or "fails"; then nvcc args
    want=$1 expect=$2
    shift 2
    got=$("$prog" langs "$@" | tr '\n' ' ')
    if [ "$got" != "$want" ]; then
        echo "FAIL: parser gives '$got' for $*, expected '$want'"
        fail=1
    fi
    rm -rf out && mkdir out || exit 1
    if (cd out && "$nvcc" "$@" >/dev/null 2>&1); then res=ok; else res=fails; fi
    if [ "$res" = "$expect" ]; then
        echo "ok: nvcc $* ($got) $res"
    else
        echo "FAIL: nvcc $* $res, expected $expect: the languages are not nvcc's"
        fail=1
    fi
}
lang "cpp " fails -c ../sub/g.cpp
lang "cu " ok -c ../sub/g.cpp -x cu
lang "cu " ok -x cu -c ../sub/g.cpp
lang "cpp cpp " fails -c ../sub/x.cu -x c++ ../sub/h.cpp
lang "cu cu " ok -c ../sub/h.cpp -x cu ../sub/g.cpp
exit $fail
