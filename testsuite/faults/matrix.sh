#!/bin/sh
# matrix.sh CL1CC DB_PUT: the fault matrix of issue 30.  Each case is built
# by plain nvcc once and by cl1cc in three modes (no database; a database
# that makes cl1cc parse the TU but applies nothing; one whose entry,
# written by db_put, makes it splice): exit status, stdout, stderr, the
# files made, dependency files, device code (not when spliced) and a second
# `make` must be nvcc's.  Prints one line per case and mode, then the counts.
set -u
cl1cc=$(readlink -f "$1") db_put=$(readlink -f "$2")
work=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
export CL1CC_CACHE_DIR="$work/cache"
pass=0 fail=0
devcode() { rm -f "$2"; objcopy -O binary --only-section=.nv_fatbin "$1" "$2" 2>/dev/null; }

# the tree every case starts from
mk_tree() {
    mkdir -p "$1/src dir" "$1/build"
    cat >"$1/src dir/k.cuh" <<'CU'
#define FACTOR 2.0f
CU
    cat >"$1/src dir/k.cu" <<'CU'
#include "k.cuh"
static void helper(void) {}
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= FACTOR;
}
void go(float *x, int n) { scale<<<(n + 127) / 128, 128>>>(x, n); }
CU
    cp "$1/src dir/k.cu" "$1/src dir/plain.cu"
    sed -i 's/^static void helper(void) {}$//' "$1/src dir/plain.cu"
    printf '\357\273\277' >"$1/src dir/bom.cu" && cat "$1/src dir/plain.cu" >>"$1/src dir/bom.cu"
    cat >"$1/src dir/v.cu" <<'CU'
#include "k.cuh"
static_assert(V1 > 1.0, "V1 is a number");
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= FACTOR;
}
void go(float *x, int n) { scale<<<(n + 127) / 128, 128>>>(x, n); }
CU
    printf -- '-DV1=\\"1.2\\"\n' >"$1/defs.optf"
    printf -- '-c\n' >"$1/args.rsp"
    cat >"$1/Makefile" <<'MK'
build/k.o: ; @$(NVCC) $(FLAGS) -MD -c "src dir/$(SRC)" -o $@
-include build/k.d
MK
}
cat >"$work/variant.cu" <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = __fmul_rz(x[i], FACTOR);
}
CU

# name | source (for db_put) | flags for db_put | command (NVCC is nvcc or cl1cc)
cases='
plain|plain.cu|-arch=sm_90 -c|$NVCC -arch=sm_90 -c "src dir/plain.cu" -o build/k.o
default_output|plain.cu|-arch=sm_90 -c|$NVCC -arch=sm_90 -c "src dir/plain.cu"
space_deps_make|plain.cu|-arch=sm_90 -c -MD|make -s NVCC="$NVCC" FLAGS=-arch=sm_90 SRC=plain.cu && sleep 1 && touch "src dir/k.cuh" && make NVCC="$NVCC" FLAGS=-arch=sm_90 SRC=plain.cu && make NVCC="$NVCC" FLAGS=-arch=sm_90 SRC=plain.cu
mmd_mp|plain.cu|-arch=sm_90 -c -MMD -MP|$NVCC -arch=sm_90 -MMD -MP -c "src dir/plain.cu" -o build/k.o
mf_mt|plain.cu|-arch=sm_90 -c -MD|$NVCC -arch=sm_90 -MD -MF build/x.d -MT custom -c "src dir/plain.cu" -o build/k.o
optf_quotes|v.cu|-arch=sm_90 -c -optf defs.optf|$NVCC -arch=sm_90 -optf defs.optf -c "src dir/v.cu" -o build/k.o
at_file|plain.cu|-arch=sm_90 -c|$NVCC -arch=sm_90 @args.rsp "src dir/plain.cu" -o build/k.o
missing_optf|plain.cu|-arch=sm_90 -c|$NVCC -arch=sm_90 -optf nowhere.optf -c "src dir/plain.cu" -o build/k.o
user_warning|k.cu|-arch=sm_90 -c|$NVCC -arch=sm_90 -c "src dir/k.cu" -o build/k.o
werror|k.cu|-arch=sm_90 -c -Werror all-warnings|$NVCC -arch=sm_90 -Werror all-warnings -c "src dir/k.cu" -o build/k.o
bom|bom.cu|-arch=sm_90 -c|$NVCC -arch=sm_90 -c "src dir/bom.cu" -o build/k.o
lineinfo|plain.cu|-arch=sm_90 -c -lineinfo|$NVCC -arch=sm_90 -lineinfo -c "src dir/plain.cu" -o build/k.o && cp build/k.o build/first.o && $NVCC -arch=sm_90 -lineinfo -c "src dir/plain.cu" -o build/k.o
launcher_bare|plain.cu|-arch=sm_90 -c|$LAUNCH -arch=sm_90 -c "src dir/plain.cu" -o build/k.o
exec_loop|plain.cu|-arch=sm_90 -c|PATH="$PWD/loop:$PATH" $NVCC -arch=sm_90 -c "src dir/plain.cu" -o build/k.o
'

# runs the case's command in dir with NVCC set; status, stdout, stderr, files
run_case() { # dir nvcc launch command; results in dir.out/
    mkdir -p "$1.out" "$1/loop"
    printf '#!/bin/sh\nexec "%s" "$@"\n' "$cl1cc" >"$1/loop/nvcc" && chmod +x "$1/loop/nvcc"
    (cd "$1" && NVCC=$2 LAUNCH=$3 timeout 120 sh -c "$4" >"$1.out/stdout" 2>"$1.out/stderr"
        echo $? >"$1.out/status")
    (cd "$1" && find . -path ./loop -prune -o -type f -print | sort >"$1.out/files")
}

compare() { # name mode refdir dir spliced
    what=""
    for f in status stdout stderr files; do
        cmp -s "$3.out/$f" "$4.out/$f" || what="$what $f"
    done
    for d in $(cd "$3" && find build -name '*.d' 2>/dev/null); do
        cmp -s "$3/$d" "$4/$d" || what="$what $d"
    done
    if [ -f "$4/build/first.o" ]; then
        # -lineinfo names the build's folder: reproducible, build after build
        devcode "$4/build/first.o" "$work/a.bin"; devcode "$4/build/k.o" "$work/b.bin"
        [ -s "$work/a.bin" ] && cmp -s "$work/a.bin" "$work/b.bin" || what="$what reproducible"
    elif [ "$5" = no ]; then
        for o in $(cd "$3" && find . -name '*.o' 2>/dev/null); do
            devcode "$3/$o" "$work/a.bin"; devcode "$4/$o" "$work/b.bin"
            [ -s "$work/a.bin" ] && cmp -s "$work/a.bin" "$work/b.bin" || what="$what $o"
        done
    fi
    if [ -n "$what" ]; then
        echo "FAIL: $1 [$2]: differs from nvcc:$what"
        for f in status stderr files; do diff "$3.out/$f" "$4.out/$f" | head -6; done
        fail=$((fail + 1))
    else
        echo "ok: $1 [$2]"
        pass=$((pass + 1))
    fi
}

nvcc_path=$(command -v nvcc)
echo "$cases" | while IFS='|' read -r name src dbflags cmd; do
    [ -n "$name" ] || continue
    ref="$work/$name/nvcc"
    mk_tree "$ref"
    run_case "$ref" "$nvcc_path" "$nvcc_path" "$cmd"
    for mode in nodb parse splice; do
        dir="$work/$name/$mode"
        mk_tree "$dir"
        export CL1CC_DB="$work/$name/$mode.db"
        spliced=no
        case $mode in
        parse) (cd "$dir" && "$db_put" "src dir/$src" scale "$work/variant.cu" 1.5 -- $dbflags -O1 -DOTHER) >/dev/null ;;
        splice) (cd "$dir" && "$db_put" "src dir/$src" scale "$work/variant.cu" 1.5 -- $dbflags) >/dev/null
            spliced=yes ;;
        esac
        run_case "$dir" "$cl1cc" "$cl1cc nvcc" "$cmd"
        # where nvcc succeeds, the splice took place: the variant's device code
        if [ "$spliced" = yes ] && [ "$(cat "$ref.out/status")" = 0 ]; then
            o=$(cd "$dir" && find . -name k.o -o -name plain.o -o -name bom.o | head -n 1)
            devcode "$ref/$o" "$work/a.bin"; devcode "$dir/$o" "$work/b.bin"
            if [ -z "$o" ] || [ ! -s "$work/a.bin" ] || cmp -s "$work/a.bin" "$work/b.bin"; then
                echo "FAIL: $name [$mode]: the variant was not spliced in"; fail=$((fail + 1))
            fi
        fi
        compare "$name" "$mode" "$ref" "$dir" "$spliced"
        ls -a "$dir/src dir" | grep -q cl1cc && { echo "FAIL: $name [$mode]: a file beside the source"; fail=$((fail + 1)); }
    done
    echo "$pass $fail" >"$work/counts"
done
set -- $(cat "$work/counts")
echo "fault matrix: $1 passed, $2 failed ($(echo "$cases" | grep -c '|') cases x 3 modes)"
[ "$2" = 0 ]
