// multi.cu: several kernels — résumé of the cases (UTF-8: λ, ü, 漢字)
#include <cuda_runtime.h>

#define BLOCK 128
#define SQUARE(x) ((x) * (x))

/* a device helper two kernels use */
__device__ float twice(float v) { return 2.0f * v; }

/* cl1cc-optimized: kernel=square_all speedup=1.80 arch=sm_90 gpu="NVIDIA H200" date=2025-01-01
 * key=4e2a71ac0b04c96db824827e850bc9a8cff268e7b1a4f5472f295a76c1712804
 * variant=46ef351c04e53f8b57351bf045f0e79bb79542426e8a1f9ba6adb950c5f311f3
 * replaced=146 sha256=ee0389439e07956c5ffe6799757c56f27101f1270686e9de168cf68b93dc3eef launch-edits=0
 * original=153 sha256=db486291c6596b302a0d478eccebec8336b47fd84588fff36a830cdb506ab857 zlib-base64:
 * eNqLj0/PyU9KzImPVyjLz0xRKC4sTSxKjU/MydFIy8lPLFHQqtBRyMwrUcjT5Krm4gSxMhVs
 * FZJy8pOzPVMq9CoUtCAcl8xcIEdboSSjKDUxBSxlzamvr1CSmKSbmZeSmleSmqKjcHhlyeGV
 * QGPSFDQyFWxAhnJyVkRnxgKNDA4MdQxy1QDxNK25agFwzjFX
 * cl1cc-optimized-end */
__global__ void square_all(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = __fmul_rn(x[i], x[i]); // ²
}

__global__ void no_entry(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = twice(x[i]);
}

/* cl1cc-optimized: kernel=add_one speedup=1.25 arch=sm_90 gpu="NVIDIA H200" date=2025-01-01
 * key=94ee98fe6bdf1de502beac729da4626e8df9767feab35650fdbea6c54a5f198f
 * variant=7624119e633cbfaed30026c10cfd44b0f02b586a26d85e6917a41fbb91c0e86e
 * replaced=132 sha256=2cda2c5d9364c88014e9739b6c8fbd80a68cf7def534d6913463567e58f0667d launch-edits=2
 * original=151 sha256=d2ce30625bacc0dec9041c0a56546da482a96a327c3b6b899020c334dc7a8956 zlib-base64:
 * eNoljEEOwiAURPc9xSxpq42uqzs3nsEYQvmgPyIk+qMkxrsLMrs3kzdPMcIWWl9CWkzQGq/E
 * BEOkU3TKh2QEQ16BoyD2+HQoqcDYYwnJ3o6Up4yhwYHvBUbI9eEM/ae5KR6Ksasf+cTnIsub
 * rVMVeqxbOWI7bfzcfX+ZEy6L
 * cl1cc-optimized-end */
static __global__ void add_one(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}

void run(float *x, int n)
{
    square_all<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, n);
    no_entry<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, n);
    add_one<<</* cl1cc-launch was=KG4gKyAyNTUpIC8gMjU2 len=15 sha=b3a3b72d */(n + 511) / 512, /* cl1cc-launch was=MjU2 len=3 sha=94f86079 */512>>>(x, n); // block and grid change with the variant
    add_one<<<1, 32, 0>>>(x, 32);            // a second launch: left alone
}
