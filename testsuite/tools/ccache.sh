#!/bin/sh
# ccache.sh CL1CC DB_PUT: the layout docs/WRAPPER.md gives: cl1cc as
# CMAKE_CUDA_COMPILER, ccache as the launcher, compiler_check running
# `cl1cc --cl1-db-stamp`.  A rebuild with an unchanged database hits; after
# a "tune" (db_put records a verified variant) the rebuilt object holds the
# variant (its device code differs from plain nvcc's); the same database
# again hits.  Skipped (77) without ccache.
set -u
cl1cc=$(readlink -f "$1") put=$(readlink -f "$2")
command -v ccache >/dev/null 2>&1 || { echo "SKIPPED: ccache is not installed (apt-get install ccache)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_DB="$work/tuning.db" HOME="$work" CCACHE_DIR="$work/ccache" \
       CCACHE_COMPILERCHECK="%compiler% --cl1-db-stamp" CCACHE_COMPILERTYPE=nvcc CCACHE_NOHASHDIR=1
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
mkdir src
cat >src/k.cu <<'CU'
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
        x[i] = x[i] * 2.0f + 1.0f;
}
CU
cat >src/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.18)
project(p LANGUAGES CUDA)
add_library(k OBJECT k.cu)
CM
cmake -S src -B b -G Ninja -DCMAKE_CUDA_COMPILER="$cl1cc" -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache \
    -DCMAKE_CUDA_ARCHITECTURES=OFF "-DCMAKE_CUDA_FLAGS=-O3 -arch=sm_90" >cmake.log 2>&1 || { bad "cmake configure"; cat cmake.log; exit 1; }
fatbin() { objcopy -O binary --only-section=.nv_fatbin "$1" "$2" 2>/dev/null; }
build() { # label: a clean rebuild through ccache; the stats after it
    rm -f "$(find b -name 'k.cu.o' | head -n 1)"
    ccache -z >/dev/null
    cmake --build b >"$1.log" 2>&1 || { bad "$1: build"; cat "$1.log"; }
    ccache --print-stats >"$1.stats"
}
hits() { awk -F'\t' '$1=="direct_cache_hit"||$1=="preprocessed_cache_hit"{n+=$2} END{print n+0}' "$1.stats"; }
misses() { awk -F'\t' '$1=="cache_miss"{print $2}' "$1.stats"; }
build first
obj=$(find b -name 'k.cu.o' | head -n 1)
fatbin "$obj" plain.fatbin
[ "$(misses first)" = 1 ] && ok "first build: a miss" || { bad "first build: $(misses first) misses"; cat first.stats; }
build again
[ "$(hits again)" = 1 ] && ok "unchanged database: a hit" || bad "unchanged database: $(hits again) hits"
# the "tune": a verified variant for the flags CMake compiles with
"$put" src/k.cu scale v.cu 1.8 -- -forward-unknown-to-host-compiler -O3 -arch=sm_90 -x cu >/dev/null 2>put.err || { bad "db_put"; cat put.err; }
build tuned
fatbin "$obj" tuned.fatbin
if [ "$(misses tuned)" = 1 ] && ! cmp -s plain.fatbin tuned.fatbin; then ok "after the tune: a miss, and the object holds the variant"; else bad "after the tune: $(misses tuned) misses, device code $(cmp -s plain.fatbin tuned.fatbin && echo unchanged || echo changed)"; cat tuned.stats; fi
build tuned_again
fatbin "$obj" tuned2.fatbin
[ "$(hits tuned_again)" = 1 ] && cmp -s tuned.fatbin tuned2.fatbin && ok "the tuned database unchanged: a hit, the variant served" || bad "tuned again: $(hits tuned_again) hits"
# a removal changes the fingerprint too
id=$("$cl1cc" db list | awk 'NR==2{print $1}')
"$cl1cc" db rm "$id" >/dev/null || bad "db rm"
build removed
fatbin "$obj" removed.fatbin
[ "$(misses removed)" = 1 ] && ok "after db rm: a miss" || bad "after db rm: $(misses removed) misses"
cmp -s removed.fatbin plain.fatbin && ok "after db rm: nvcc's device code again" || bad "after db rm: device code differs from plain"
exit $fail
