// crlf.cu: a file with DOS line endings
#include <cuda_runtime.h>

/* cl1cc-optimized: kernel=halve speedup=1.30 arch=sm_90 gpu="NVIDIA H200" date=2025-01-01
 * key=bfb2316f9d3f85ecba03b9d05c0f1a6e9f1db995aa7293a6f2bf7eec9ba924f5
 * variant=2b4f0f0ef6a350ace6dfe2be3cceb4da796d92cc2b4e0060fa6463c09b10ca14
 * replaced=143 sha256=5b2229d07eb2d5088283d349ae905727ddb8977ce8bec8e34634757245f19ce7 launch-edits=0
 * original=141 sha256=cb09e397b3287bac2aa5ff2d22a0749061094c0f182b7b692a9fa3680d584a5f zlib-base64:
 * eNqLj0/PyU9KzImPVyjLz0xRyEjMKUvVSMvJTyxR0KrQUcjMK1HI0+TlqublUgACEDdTwVYh
 * KSc/OdszpUKvQkELwnHJzAVytBVKMopSE1PAUtZQPWkKGpkKNmBjFKCgIjozFmgMmNJXMNIz
 * SAMqrgUA+9kn0A==
 * cl1cc-optimized-end */
__global__ void halve(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 0.5f;
}

void run(float *x, int n) { halve<<<(n + 63) / 64, 64>>>(x, n); }
