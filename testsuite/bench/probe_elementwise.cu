// probe_elementwise.cu: how much 16-byte accesses gain on an element-wise
// 2-D update (PolyBench's gemver_kernel1 shape, 4096x4096 floats) on this
// GPU, before a transform is written for it.  Prints median times and
// ratios over the original, measured in one process, L2 flushed before
// every launch.  Build: nvcc -O3 -arch=sm_90 -o probe probe_elementwise.cu
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define N 4096
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(2); } } while (0)

__global__ void orig(float *a, const float *v1, const float *v2, const float *u1, const float *u2)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < N && j < N)
        a[i * N + j] += u1[i] * v1[j] + u2[i] * v2[j];
}

// each thread 4 consecutive columns, 16-byte loads and stores; grid.x / 4
__global__ void vec4(float *a, const float *v1, const float *v2, const float *u1, const float *u2)
{
    int j = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < N && j + 3 < N) {
        float4 x = *(float4 *)&a[i * N + j];
        float4 p = *(const float4 *)&v1[j], q = *(const float4 *)&v2[j];
        float s = u1[i], t = u2[i];
        x.x += s * p.x + t * q.x; x.y += s * p.y + t * q.y;
        x.z += s * p.z + t * q.z; x.w += s * p.w + t * q.w;
        *(float4 *)&a[i * N + j] = x;
    }
}

// the same work on the original grid: blocks past a quarter of x return
__global__ void vec4_same_grid(float *a, const float *v1, const float *v2, const float *u1, const float *u2)
{
    if (blockIdx.x >= (gridDim.x + 3) / 4)
        return;
    int j = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < N && j + 3 < N) {
        float4 x = *(float4 *)&a[i * N + j];
        float4 p = *(const float4 *)&v1[j], q = *(const float4 *)&v2[j];
        float s = u1[i], t = u2[i];
        x.x += s * p.x + t * q.x; x.y += s * p.y + t * q.y;
        x.z += s * p.z + t * q.z; x.w += s * p.w + t * q.w;
        *(float4 *)&a[i * N + j] = x;
    }
}

// the original's body, 4 rows a thread on a grid a quarter as tall (ILP)
__global__ void rows4(float *a, const float *v1, const float *v2, const float *u1, const float *u2)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i0 = blockIdx.y * blockDim.y * 4 + threadIdx.y;
#pragma unroll
    for (int r = 0; r < 4; r++) {
        int i = i0 + r * blockDim.y;
        if (i < N && j < N)
            a[i * N + j] += u1[i] * v1[j] + u2[i] * v2[j];
    }
}

int main()
{
    float *a, *v[4], *flush;
    size_t bytes = (size_t)N * N * sizeof(float);
    CK(cudaMalloc(&a, bytes));
    for (int k = 0; k < 4; k++) CK(cudaMalloc(&v[k], N * sizeof(float)));
    CK(cudaMalloc(&flush, 256 << 20));
    std::vector<float> h(N);
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < N; i++) h[i] = (float)((i * 7 + k) % 13) / 13.f;
        CK(cudaMemcpy(v[k], h.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    }
    CK(cudaMemset(a, 0, bytes));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    const char *names[] = {"orig 32x8", "vec4 grid.x/4", "vec4 same grid", "rows4 grid.y/4"};
    std::vector<float> t[4];
    for (int rep = 0; rep < 60; rep++) {
        for (int w = 0; w < 4; w++) {
            int k = rep % 2 ? 3 - w : w;
            CK(cudaMemset(flush, rep & 0xff, 256 << 20));
            dim3 b(32, 8);
            CK(cudaEventRecord(e0));
            if (k == 0) orig<<<dim3(N / 32, N / 8), b>>>(a, v[0], v[1], v[2], v[3]);
            if (k == 1) vec4<<<dim3(N / 128, N / 8), b>>>(a, v[0], v[1], v[2], v[3]);
            if (k == 2) vec4_same_grid<<<dim3(N / 32, N / 8), b>>>(a, v[0], v[1], v[2], v[3]);
            if (k == 3) rows4<<<dim3(N / 32, N / 32), b>>>(a, v[0], v[1], v[2], v[3]);
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            if (rep >= 4) t[k].push_back(ms);
        }
    }
    double base = 0;
    for (int k = 0; k < 4; k++) {
        std::sort(t[k].begin(), t[k].end());
        double med = t[k][t[k].size() / 2];
        if (k == 0) base = med;
        printf("%-18s %8.4f ms  %5.2fx  (%.2f TB/s)\n", names[k], med, base / med, 2.0 * bytes / med / 1e9);
    }
    return 0;
}
