#!/bin/sh
# cmake_modes.sh CL1CC DB_PUT: a small CUDA project built through cl1cc in
# each way users plug it in: CMAKE_CUDA_COMPILER=cl1cc,
# CMAKE_CUDA_COMPILER_LAUNCHER=cl1cc (with Ninja, which passes response
# files) and `make NVCC=cl1cc`; each build applies the variant in the
# database and links.
set -u
cl1cc=$(readlink -f "$1") db_put=$(readlink -f "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_DB="$work/tuning.db" CL1CC_CACHE_DIR="$work/cache" CL1CC_VERBOSE=1
fail=0
mkdir -p "$work/src"
cd "$work/src" || exit 1
cat >kern.cu <<'CU'
__global__ void twice(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}
void launch(float *x, int n) { twice<<<(n + 255) / 256, 256>>>(x, n); }
CU
cat >main.cpp <<'CU'
void launch(float *x, int n);
int main() { return 0; }
CU
cat >variant.cu <<'CU'
__global__ void twice(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] + x[i];
}
CU
cat >CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.20)
project(modes LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 90)
add_executable(app main.cpp kern.cu)
CM
printf 'app: kern.cu main.cpp\n\t$(NVCC) -O3 -arch=sm_90 -c kern.cu -o kern.o\n\t$(NVCC) -O3 -arch=sm_90 kern.o main.cpp -o app\n' >Makefile
nvcc_path=$(command -v nvcc)

applied() { grep -q "kernel twice: verified variant" "$1"; }
# the flags CMake passes, for the key: record the variant for those
"$db_put" kern.cu twice variant.cu 1.5 -- -O3 -arch=sm_90 || exit 1
# and for the flags CMake 3.25 passes for CMAKE_CUDA_ARCHITECTURES=90
"$db_put" kern.cu twice variant.cu 1.5 -- -forward-unknown-to-host-compiler \
    --generate-code=arch=compute_90,code=[compute_90,sm_90] -std=c++17 -x cu || exit 1

for mode in compiler launcher; do
    b=$work/build-$mode
    if [ $mode = compiler ]; then
        cmake -S . -B "$b" -G Ninja -DCMAKE_CUDA_COMPILER="$cl1cc" >"$b.log" 2>&1
    else
        cmake -S . -B "$b" -G Ninja -DCMAKE_CUDA_COMPILER="$nvcc_path" -DCMAKE_CUDA_COMPILER_LAUNCHER="$cl1cc" >"$b.log" 2>&1
    fi
    if [ $? -ne 0 ]; then echo "FAIL: cmake configure ($mode)"; tail -20 "$b.log"; fail=1; continue; fi
    if cmake --build "$b" -v >"$b.build.log" 2>&1 && [ -x "$b/app" ]; then
        if applied "$b.build.log"; then echo "ok: CMake $mode mode builds and applies the variant"
        else echo "FAIL: CMake $mode mode built but applied nothing"; grep -i "cl1cc\|nvcc" "$b.build.log" | head -5; fail=1; fi
    else
        echo "FAIL: CMake $mode mode build"; tail -20 "$b.build.log"; fail=1
    fi
done
if make NVCC="$cl1cc" >make.log 2>&1 && [ -x app ] && applied make.log; then echo "ok: make NVCC=cl1cc builds and applies the variant"
else echo "FAIL: make NVCC=cl1cc"; cat make.log | tail -10; fail=1; fi
exit $fail
