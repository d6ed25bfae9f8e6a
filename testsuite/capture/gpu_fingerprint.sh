#!/bin/sh
# gpu_fingerprint.sh RUNTIME_DIR: the capture runtime's GPU part.  The
# fingerprint computed on the GPU equals its host twin (sizes with and
# without a tail past the last whole word); a capture of three launches
# over a 4 MiB input writes each large file once: a read-only input's
# output is a hard link to its input, the next launch's equal input a link
# to the first, a changed input a file of its own with its own bytes, and
# the kernel's output holds what it wrote.  The same captures with the
# host path (CL1CC_CAPTURE_HOST_COMPARE=1) hold the same bytes.  Needs a
# GPU: exit 77 (skipped) without one.
set -u
runtime=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cat >"$t/fp.cu" <<'CU'
#include "cl1cc_capture.cuh"
#include <cstdlib>
#include <vector>
__global__ void twice(float *out, const float *in, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i];
}
static int bad = 0;
#define CHECK(cond, what) do { int ok_ = (cond); printf("%s %s\n", ok_ ? "ok" : "FAIL", what); bad |= !ok_; } while (0)
static void launch_captured(float *out, const float *in, size_t n)
{
    dim3 grid((unsigned)((n + 255) / 256)), block(256);
    cl1cc_capture::launch l("t", "twice", 0, grid, block, 0, 0);
    l.arg((const void *)&out, sizeof out, 1);
    l.arg((const void *)&in, sizeof in, 1);
    l.arg((const void *)&n, sizeof n, 0);
    l.before();
    twice<<<grid, block>>>(out, in, n);
    l.after();
}
int main()
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("SKIP: no GPU\n");
        return 77;
    }
    /* the GPU's fingerprint against the host's: not on the host path's run
     * (CL1CC_CAPTURE_HOST_COMPARE=1 turns the GPU's part off) */
    const bool gpu_part = !getenv("CL1CC_CAPTURE_HOST_COMPARE");
    for (size_t size : {(size_t)1 << 20, ((size_t)1 << 20) + 3, ((size_t)5 << 20) + 7}) {
        if (!gpu_part)
            break;
        std::vector<unsigned char> h(size);
        for (size_t i = 0; i < size; i++)
            h[i] = (unsigned char)((i * 2654435761u) >> 9);
        unsigned char *d = 0;
        cudaMalloc((void **)&d, size);
        cudaMemcpy(d, h.data(), size, cudaMemcpyHostToDevice);
        cl1cc_capture::fingerprint g, c = cl1cc_capture::host_fingerprint(h.data(), size);
        int ok = cl1cc_capture::gpu_fingerprint((unsigned long long)d, size, &g) == 0;
        char what[128];
        snprintf(what, sizeof what, "the GPU's fingerprint of %zu bytes equals the host's", size);
        CHECK(ok && cl1cc_capture::same_print(g, c), what);
        cudaFree(d);
    }
    const size_t n = (size_t)1 << 20; /* 4 MiB of floats */
    std::vector<float> in(n);
    for (size_t i = 0; i < n; i++)
        in[i] = (float)(i % 1000) * 0.5f;
    float *d_in = 0, *d_out = 0;
    cudaMalloc((void **)&d_in, n * sizeof(float));
    cudaMalloc((void **)&d_out, n * sizeof(float));
    cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, n * sizeof(float));
    launch_captured(d_out, d_in, n);
    launch_captured(d_out, d_in, n);
    for (size_t i = 0; i < n; i++)
        in[i] += 1.0f;
    cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    launch_captured(d_out, d_in, n);
    return bad;
}
CU
nvcc -std=c++17 -Xcompiler -Wall,-Wextra -I"$runtime" -o "$t/fp" "$t/fp.cu" >"$t/build.log" 2>&1 ||
    { echo "FAIL the test program did not compile"; cat "$t/build.log"; exit 1; }
"$t/fp" >"$t/probe.log" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
    echo "SKIPPED: no GPU on this machine: the capture runtime's GPU fingerprint was not run"
    exit 77
fi
fail=0
CL1CC_CAPTURE_DIR=$t/gpu "$t/fp" || fail=1
CL1CC_CAPTURE_DIR=$t/host CL1CC_CAPTURE_HOST_COMPARE=1 "$t/fp" >/dev/null || fail=1
g=$t/gpu/t/k0
inode() { stat -c %i "$1" 2>/dev/null || echo missing-$1; }
check() { if [ "$1" ]; then echo "ok $2"; else echo "FAIL $2"; fail=1; fi; }
check "$( [ "$(inode $g/0/alloc1.out)" = "$(inode $g/0/alloc1.in)" ] && echo y)" \
    "the input a launch left as it was: its output file is a link to its input file"
check "$( [ "$(inode $g/1/alloc1.in)" = "$(inode $g/0/alloc1.in)" ] && echo y)" \
    "the next launch's equal input: a link to the first"
check "$( [ "$(inode $g/1/alloc0.in)" = "$(inode $g/0/alloc0.out)" ] && echo y)" \
    "an input equal to an earlier launch's output: a link to that"
check "$( [ "$(inode $g/2/alloc1.in)" != "$(inode $g/0/alloc1.in)" ] && echo y)" \
    "a changed input: a file of its own"
check "$( [ "$(inode $g/0/alloc0.out)" != "$(inode $g/0/alloc0.in)" ] && echo y)" \
    "an output the launch wrote: a file of its own"
same=y
for f in $(cd "$t/host/t/k0" && find . -name 'alloc*'); do
    cmp -s "$t/host/t/k0/$f" "$g/$f" || { same=; echo "differs: $f"; }
done
[ "$(cd "$t/host/t/k0" && find . -name 'alloc*' | wc -l)" -eq 12 ] || same=
check "$same" "the host path's 12 files hold the same bytes"
exit $fail
