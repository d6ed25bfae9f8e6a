// sums_parts.cu: which part of col_split8 as the policy wrote it up to
// c3876b0 (testsuite/policy/expected/col_sum.col_split8distinctshape256x1x1flatgrid.cu
// there; the policy has since dropped the parts found costly) costs it
// the 20-30% of the copy bandwidth that a hand-written sum of the
// same shape (8 columns a block of 256 threads, 32 row phases) reaches
// (sums_check.cu).  One kernel replicates the generated text; a set flag
// keeps that part as generated (all set: the variant as written), a clear
// one has the hand-written form:
//   DEVICE_M   the column count read from a __device__ variable (how
//              sums_check.cu stands in for PolyBench's macro), not a constant
//   ZERO       the element reset and barrier before the sum, the read-back
//              after it and the barrier closing each phase
//   LOOP       the loop over the block's phases (one trip here)
//   FALLBACK   the original kept behind `else` for other block shapes
//   INT_INDEX  32-bit index arithmetic (int), not size_t
// and __launch_bounds__(256) (col_bound) or none (col_free).  The row sums
// likewise: wide_rows_vec as written (2 trips unrolled), with 4 and 8, and
// without its element reset.
// Every form is checked against the original (within 1e-5 of the terms'
// magnitude), then timed (median of 9), as a share of a device copy.
//   nvcc -O3 -arch=sm_90 -o sums_parts testsuite/bench/sums_parts.cu
//   ./sums_parts            (4096 x 4096 floats; also wide_rows_vec's row sums)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "bench_cuda.h"

constexpr int N = 4096;
__device__ int d_M;

enum { DEVICE_M = 1, ZERO = 2, LOOP = 4, FALLBACK = 8, INT_INDEX = 16 };

/* the generated text with F's parts kept */
template <int F> __device__ __forceinline__ void col_body(int n, float *A, float *tmp, float *y)
{
    const int M = (F & DEVICE_M) ? d_M : N;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (!(F & FALLBACK) || (blockDim.x == 256 && blockDim.y == 1 && blockDim.z == 1)) {
        __shared__ float part[32][8];
        const long long lin = gridDim.y == 32 ? (long long)blockIdx.y * gridDim.x + blockIdx.x
                              : gridDim.y == 1 ? (long long)blockIdx.x : -1;
        const int bx = lin >= 0 ? (int)(lin / 32) : (int)blockIdx.x;
        const int by = lin >= 0 ? (int)(lin % 32) : (int)blockIdx.y;
        const int t = threadIdx.x;
        const int c = t % 8, r = t / 8;
        for (int s = by; s < 32; s += (F & LOOP) ? (int)gridDim.y : 32) {
            const int j = bx * 256 + s * 8 + c;
            const bool in = (j < M);
            if (F & ZERO) {
                if (in && r == 0)
                    y[j] = 0;
                __syncthreads();
            }
            float acc = 0;
            if (in) {
                if (F & INT_INDEX) {
#pragma unroll 8
                    for (int i = r; i < n; i += 32)
                        acc += A[i * M + j] * tmp[i];
                } else {
#pragma unroll 8
                    for (int i = r; i < n; i += 32)
                        acc += A[(size_t)i * M + j] * tmp[i];
                }
            }
            part[r][c] = acc;
            __syncthreads();
            if (in && r == 0) {
                for (int w = 1; w < 32; w++)
                    acc += part[w][c];
                y[j] = (F & ZERO) ? y[j] + acc : acc;
            }
            if (F & ZERO)
                __syncthreads();
            if (!(F & LOOP))
                break;
        }
    } else if (blockIdx.y == 0 && j < M) {
        y[j] = 0;
        for (int i = 0; i < n; i++)
            y[j] += A[i * M + j] * tmp[i];
    }
}

template <int F> __global__ void col_free(int n, float *A, float *tmp, float *y) { col_body<F>(n, A, tmp, y); }
template <int F> __global__ void __launch_bounds__(256) col_bound(int n, float *A, float *tmp, float *y)
{
    col_body<F>(n, A, tmp, y);
}

__global__ void col_naive(int n, const float *A, const float *x, float *y)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < N) {
        float s = 0;
        for (int i = 0; i < n; i++)
            s += A[(size_t)i * N + j] * x[i];
        y[j] = s;
    }
}

/* wide_rows_vec as written (testsuite/policy/expected/row_dot_n.wide_rows_vec...):
 * a warp a row, float4 loads, U trips unrolled into one accumulator; RESET:
 * the element reset, __syncwarp and read-back as generated */
template <int U, bool RESET>
__global__ void row_gen(int rows, int n, const float *A, const float *x, float *out)
{
    const int lane = threadIdx.x % 32;
    const long long lin = gridDim.y == 32 ? (long long)blockIdx.y * gridDim.x + blockIdx.x : -1;
    const int bx = lin >= 0 ? (int)(lin / 32) : (int)blockIdx.x;
    const int by = lin >= 0 ? (int)(lin % 32) : (int)blockIdx.y;
    for (int r = (int)(by * 8 + threadIdx.x / 32); r < 256; r += (int)(gridDim.y * 8)) {
        const int i = bx * 256 + r;
        if (i < rows) {
            if (RESET) {
                if (lane == 0)
                    out[i] = 0;
                __syncwarp();
            }
            float acc = 0;
#pragma unroll U
            for (int vj = 4 * lane; vj + 3 < n; vj += 128) {
                const float4 a = *(const float4 *)&A[i * n + vj];
                const float4 b = *(const float4 *)&x[vj];
                acc += a.x * b.x;
                acc += a.y * b.y;
                acc += a.z * b.z;
                acc += a.w * b.w;
            }
            for (int o = 16; o > 0; o /= 2)
                acc += __shfl_down_sync(0xffffffffu, acc, o);
            if (lane == 0)
                out[i] = RESET ? out[i] + acc : acc;
        }
    }
}

__global__ void row_naive(int n, const float *A, const float *x, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = 0;
        for (int j = 0; j < n; j++)
            s += A[(size_t)i * n + j] * x[j];
        out[i] = s;
    }
}

struct form {
    const char *name;
    std::function<void()> run;
};

/* each form checked against forms[0], then timed; nonzero: a mismatch */
static int table(const char *title, std::vector<form> &forms, float *y, const std::vector<float> &scale,
                 double bytes, double copy_gbs)
{
    forms[0].run();
    const std::vector<float> ref = fetch(y, N);
    int bad = 0;
    float t0 = 0;
    printf(" %s\n", title);
    for (auto &f : forms) {
        CHECK(cudaMemset(y, 0xff, N * sizeof(float)));
        f.run();
        const std::vector<float> got = fetch(y, N);
        int b = 0;
        for (int k = 0; k < N; k++)
            b += !(fabs((double)ref[k] - got[k]) <= 1e-5 * scale[k]);
        bad |= b != 0;
        const float t = time_ms(f.run, 9);
        if (!t0)
            t0 = t;
        printf("  %-30s %9.4f ms %7.0f GB/s %5.1f%% of copy %7.2fx%s\n", f.name, t, bytes / t / 1e6,
               100 * bytes / t / 1e6 / copy_gbs, t0 / t, b ? "  MISMATCH" : "");
    }
    return bad;
}

int main()
{
    CHECK(cudaMemcpyToSymbol(d_M, &N, sizeof N));
    const size_t na = (size_t)N * N;
    std::vector<float> h(na + N);
    srand(17);
    for (float &v : h)
        v = (float)rand() / RAND_MAX - 0.5f;
    float *A, *x, *y, *copy;
    CHECK(cudaMalloc(&A, na * sizeof(float)));
    CHECK(cudaMalloc(&copy, na * sizeof(float)));
    CHECK(cudaMalloc(&x, N * sizeof(float)));
    CHECK(cudaMalloc(&y, N * sizeof(float)));
    CHECK(cudaMemcpy(A, h.data(), na * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(x, h.data() + na, N * sizeof(float), cudaMemcpyHostToDevice));
    const float tc = time_ms([&] { CHECK(cudaMemcpyAsync(copy, A, na * sizeof(float), cudaMemcpyDeviceToDevice)); }, 9);
    const double copy_gbs = 2.0 * na * 4 / tc / 1e6, bytes = (double)na * 4 + 2.0 * N * 4;
    std::vector<float> col_scale(N), row_scale(N);
    for (int k = 0; k < N; k++) {
        double c = 0, r = 0;
        for (int l = 0; l < N; l++)
            c += fabs((double)h[(size_t)l * N + k] * h[na + l]), r += fabs((double)h[(size_t)k * N + l] * h[na + l]);
        col_scale[k] = (float)c, row_scale[k] = (float)r;
    }
    printf("%d x %d floats: device copy %.0f GB/s\n", N, N, copy_gbs);
    const dim3 tall(N / 256, 32), flat(N / 8, 1);
    constexpr int ALL = DEVICE_M | ZERO | LOOP | FALLBACK | INT_INDEX;
    std::vector<form> cols = {
        {"original (a thread a column)", [&] { col_naive<<<N / 256, 256>>>(N, A, x, y); }},
        {"as written", [&] { col_free<ALL><<<tall, 256>>>(N, A, x, y); }},
        {"as written, constant M", [&] { col_free<ALL & ~DEVICE_M><<<tall, 256>>>(N, A, x, y); }},
        {"as written, no reset", [&] { col_free<ALL & ~ZERO><<<tall, 256>>>(N, A, x, y); }},
        {"as written, no phase loop", [&] { col_free<ALL & ~LOOP><<<tall, 256>>>(N, A, x, y); }},
        {"as written, no fallback", [&] { col_free<ALL & ~FALLBACK><<<tall, 256>>>(N, A, x, y); }},
        {"as written, 64-bit index", [&] { col_free<ALL & ~INT_INDEX><<<tall, 256>>>(N, A, x, y); }},
        {"as written, launch bounds", [&] { col_bound<ALL><<<tall, 256>>>(N, A, x, y); }},
        {"constant M, no reset", [&] { col_free<ALL & ~DEVICE_M & ~ZERO><<<tall, 256>>>(N, A, x, y); }},
        {"none of the parts", [&] { col_bound<0><<<tall, 256>>>(N, A, x, y); }},
        {"none, flat grid", [&] { col_bound<0><<<flat, 256>>>(N, A, x, y); }},
    };
    const unsigned gx = N / 256;
    std::vector<form> rows = {
        {"original (a thread a row)", [&] { row_naive<<<gx, 256>>>(N, A, x, y); }},
        {"as written (unroll 2)", [&] { row_gen<2, true><<<dim3(gx, 32), 256>>>(N, N, A, x, y); }},
        {"as written, unroll 4", [&] { row_gen<4, true><<<dim3(gx, 32), 256>>>(N, N, A, x, y); }},
        {"as written, unroll 8", [&] { row_gen<8, true><<<dim3(gx, 32), 256>>>(N, N, A, x, y); }},
        {"as written, no reset", [&] { row_gen<2, false><<<dim3(gx, 32), 256>>>(N, N, A, x, y); }},
        {"unroll 8, no reset", [&] { row_gen<8, false><<<dim3(gx, 32), 256>>>(N, N, A, x, y); }},
    };
    int bad = table("column sums (col_split8)", cols, y, col_scale, bytes, copy_gbs);
    bad |= table("row sums (wide_rows_vec)", rows, y, row_scale, bytes, copy_gbs);
    cudaFree(A), cudaFree(copy), cudaFree(x), cudaFree(y);
    printf("%s\n", bad ? "FAIL" : "all results ok");
    return bad;
}
