#!/bin/sh
# signals.sh CL1CC DB_PUT: signals and limits during a spliced compile (a
# database entry makes cl1cc splice): SIGINT to the process group stops
# cl1cc with nvcc's status; under ulimit -f cl1cc gives nvcc's result;
# SIGKILL at several delays leaves nothing a build could take for a source,
# and a CMake build that globs *.cu afterwards links.
set -u
cl1cc=$(readlink -f "$1") db_put=$(readlink -f "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_DB="$work/tuning.db" CL1CC_CACHE_DIR="$work/cache"
fail=0
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
printf 'void go(float *x, int n);\nint main() { go(0, 0); return 0; }\n' >src/main.cu
cat >variant.cu <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = __fmul_rz(x[i], 2.0f);
}
CU
"$db_put" src/k.cu scale variant.cu 1.5 -- -arch=sm_90 -c >/dev/null || { echo "FAIL: db_put"; exit 1; }
# the cache's precompiled headers first, so the delays below fall in nvcc's runs
"$cl1cc" -arch=sm_90 -c src/k.cu -o warm.o || { echo "FAIL: warm-up compile"; exit 1; }

# runs "$@" in a new session (its own process group), sends SIG to that
# group after DELAY seconds if it still runs; prints the exit status (as a
# shell reports it), or "none" when the command had ended before
signalled() { # SIG DELAY command...
    python3 -c 'import os, signal, subprocess, sys, time
sig, delay = getattr(signal, "SIG" + sys.argv[1]), float(sys.argv[2])
p = subprocess.Popen(sys.argv[3:], start_new_session=True, stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
end = time.monotonic() + delay
while time.monotonic() < end and p.poll() is None:
    time.sleep(0.02)
if p.poll() is not None:
    print("none")
    sys.exit(0)
os.killpg(p.pid, sig)
rc = p.wait()
print(rc if rc >= 0 else 128 - rc)' "$@"
}

# 1. Ctrl-C: nvcc exits 2 (and under load sometimes 255: its child's death
# by the group's SIGINT can reach it before its own handler ends it); cl1cc
# must end with a status nvcc ends with, at every point of its run (a delay
# at which the compile had ended already says "none").  What nvcc gives is
# sampled at the same delays: 2, and any other it showed.
want=" 2 "
for d in 0.3 0.7 1.1; do
    w=$(signalled INT $d nvcc -arch=sm_90 -c src/k.cu -o int_nvcc.o)
    case "$w" in none | *" $w "*) ;; *) want="$want$w " ;; esac
done
hits=0
for d in 0.3 0.7 1.1 1.5 1.9; do
    got=$(signalled INT $d "$cl1cc" -arch=sm_90 -c src/k.cu -o int.o)
    [ "$got" = none ] && continue
    hits=$((hits + 1))
    case "$want" in
    *" $got "*) echo "ok: SIGINT after ${d}s: status $got, as nvcc's (nvcc gave:$want)" ;;
    *) echo "FAIL: SIGINT after ${d}s: status $got (nvcc gave:$want)"; fail=1 ;;
    esac
done
[ $hits -ge 2 ] || { echo "FAIL: SIGINT reached cl1cc's nvcc $hits times"; fail=1; }

# 2. ulimit -f: cl1cc's own writes (the cache) fail quietly; the build is nvcc's
(ulimit -f 5000; nvcc -arch=sm_90 -c src/k.cu -o lim_nvcc.o; echo $? >st_nvcc)
rm -rf "$work/cache/pch"
(ulimit -f 5000; "$cl1cc" -arch=sm_90 -c src/k.cu -o lim.o 2>lim.err; echo $? >st_cl1cc)
if cmp -s st_nvcc st_cl1cc && [ -s lim.o ]; then echo "ok: ulimit -f 5000: status $(cat st_cl1cc), as nvcc"; else echo "FAIL: ulimit -f: nvcc $(cat st_nvcc), cl1cc $(cat st_cl1cc)"; cat lim.err; fail=1; fi
if find "$work/cache" -name '*.tmp' | grep -q .; then echo "FAIL: ulimit -f left temporaries: $(find "$work/cache" -name '*.tmp')"; fail=1; fi

# 3. SIGKILL at several delays: nothing beside the sources, stale folders swept
for d in 0.2 0.6 1.0 1.5 2.0 3.0; do
    signalled KILL $d "$cl1cc" -arch=sm_90 -c src/k.cu -o kill.o >/dev/null
done
if [ "$(ls -A src | sort | tr '\n' ' ')" = "k.cu main.cu " ]; then echo "ok: SIGKILL at 6 delays: nothing beside the sources"; else echo "FAIL: litter beside the sources: $(ls -A src)"; fail=1; fi
"$cl1cc" -arch=sm_90 -c src/k.cu -o after.o
left=$(find "$work/cache/splice" -mindepth 1 -not -name '*.lock' | head -3)
[ -z "$left" ] && echo "ok: the next compile swept the killed ones' folders" || { echo "FAIL: left in the cache: $left"; fail=1; }
cat >CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.18)
project(glob LANGUAGES CUDA)
set(CMAKE_CUDA_ARCHITECTURES 90)
file(GLOB sources src/*.cu)
add_executable(app ${sources})
CM
if cmake -S . -B build -DCMAKE_CUDA_COMPILER="$cl1cc" >cmake.log 2>&1 && cmake --build build >>cmake.log 2>&1; then
    echo "ok: a CMake build globbing src/*.cu after the kills links"
else
    echo "FAIL: CMake glob build:"; tail -n 15 cmake.log; fail=1
fi
exit $fail
