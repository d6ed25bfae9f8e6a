// unjudgeable.cu: kernels whose state is or is not in their captures.
// scale_by_coef reads a __constant__ array the program sets with
// cudaMemcpyToSymbol: the capture saves it beside the arguments' allocations
// and the replay restores it, so its variants are judged (launched twice on
// the same inputs: the second capture is not checked again).  Two cannot be,
// each for its own reason, which the judge must name: scale_by_late reads a
// __device__ variable declared after the launch (the launch site cannot
// name it, so no capture holds it); compact_positive writes the positive
// elements where atomicAdd puts them, in another order each run
// (nondeterministic).
#include <cstdio>
#include <cstdlib>

__constant__ float coef[4];

__global__ void scale_by_coef(float *out, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i] * coef[i & 3];
}

__global__ void scale_by_late(float *out, const float *x, int n);

__global__ void compact_positive(float *out, int *count, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > 0.f)
        out[atomicAdd(count, 1)] = x[i];
}

int set_late_gain(float g);

int main()
{
    const int n = 1 << 20;
    size_t bytes = n * sizeof(float);
    float *x = (float *)malloc(bytes);
    for (int i = 0; i < n; i++)
        x[i] = (float)(((long long)i * 7919) % 1000) - 400.f;
    const float c[4] = {1.5f, -2.f, 0.25f, 3.f};
    float *d_x, *d_out, *d_comp;
    int *d_count;
    if (cudaMalloc(&d_x, bytes) != cudaSuccess || cudaMalloc(&d_out, bytes) != cudaSuccess ||
        cudaMalloc(&d_comp, bytes) != cudaSuccess || cudaMalloc(&d_count, sizeof(int)) != cudaSuccess ||
        cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemset(d_count, 0, sizeof(int)) != cudaSuccess ||
        cudaMemcpyToSymbol(coef, c, sizeof c) != cudaSuccess) {
        fprintf(stderr, "unjudgeable: CUDA setup failed\n");
        return 2;
    }
    // a benchmark's repeat loop: the same launch on the same inputs (the
    // judge checks one of these captures)
    for (int rep = 0; rep < 2; rep++) {
        cudaMemset(d_out, 0, bytes);
        scale_by_coef<<<(n + 255) / 256, 256>>>(d_out, d_x, n);
    }
    if (set_late_gain(2.5f) != 0) {
        fprintf(stderr, "unjudgeable: cudaMemcpyToSymbol failed\n");
        return 2;
    }
    scale_by_late<<<(n + 255) / 256, 256>>>(d_out, d_x, n);
    compact_positive<<<(n + 255) / 256, 256>>>(d_comp, d_count, d_x, n);
    int count = 0;
    if (cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "unjudgeable: copy failed\n");
        return 2;
    }
    int want = 0;
    for (int i = 0; i < n; i++)
        want += x[i] > 0.f;
    if (count != want) {
        fprintf(stderr, "unjudgeable: %d positive, expected %d\n", count, want);
        return 1;
    }
    printf("unjudgeable: ok (%d positive)\n", count);
    return 0;
}

__device__ float late_gain = 1.f;

int set_late_gain(float g)
{
    return cudaMemcpyToSymbol(late_gain, &g, sizeof g) == cudaSuccess ? 0 : 1;
}

__global__ void scale_by_late(float *out, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i] * late_gain;
}
