// sums_check.cu: how close column sums and row sums of a matrix (PolyBench's
// matrix-vector kernels: y[j] = sum_i A[i][j] x[i], out[i] = sum_j A[i][j]
// x[j]) come to the device's copy bandwidth, for the catalogue's variants
// as the policy writes them (the goldens under testsuite/policy/expected/)
// and for other shapes of the same sum, to choose what the catalogue should
// write next:
//   columns: col_split (W = 32 columns a block of 256, 8 row phases) and
//     col_split8 (W = 8, 32 phases), as written; W columns by T threads for
//     other W and T; rows also split over S blocks whose partial sums meet
//     by atomicAdd; 4 columns a thread (float4) likewise;
//   rows: wide_rows_vec as written (a warp a row, float4), and a warp a row
//     with U float4 loads in flight.
// Every variant is checked against the original (sums reassociated: within
// 1e-5 of the terms' magnitude), then timed (median of 9).
//   nvcc -O3 -arch=sm_90 -o sums_check testsuite/bench/sums_check.cu
//   ./sums_check [N]        (an N x N matrix; default 4096, then 2048)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "bench_cuda.h"

__device__ int d_M; /* the goldens' column count, set before each run */
#define M d_M
#define col_sum col_sum_split32
#include "../policy/expected/col_sum.col_splitdistinctshape256x1x1flatgrid.cu"
#undef col_sum
#define col_sum col_sum_split8
#include "../policy/expected/col_sum.col_split8distinctshape256x1x1flatgrid.cu"
#undef col_sum
#define row_dot_n row_dot_n_wide_rows_vec
#include "../policy/expected/row_dot_n.wide_rows_vecdistinctshape256x1x1flatgrid.cu"
#undef row_dot_n

/* the original: a thread a column */
__global__ void col_naive(int n, int m, const float *A, const float *x, float *y)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < m) {
        y[j] = 0;
        for (int i = 0; i < n; i++)
            y[j] += A[(size_t)i * m + j] * x[i];
    }
}

/* the original: a thread a row */
__global__ void row_naive(int rows, int n, const float *A, const float *x, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows) {
        out[i] = 0;
        for (int j = 0; j < n; j++)
            out[i] += A[(size_t)i * n + j] * x[j];
    }
}

/* W columns a block of T threads, T/W row phases, S row slices a column
 * block (grid.y = S), partial sums added by atomicAdd into y (zeroed) */
template <int W, int T, int S, int U>
__global__ void __launch_bounds__(T) col_phases(int n, int m, const float *A, const float *x, float *y)
{
    constexpr int P = T / W;
    __shared__ float part[P][W];
    const int c = threadIdx.x % W, r = threadIdx.x / W;
    const int j = blockIdx.x * W + c;
    const int rows = (n + S - 1) / S, i0 = blockIdx.y * rows, i1 = min(n, i0 + rows);
    float acc = 0;
    if (j < m) {
#pragma unroll U
        for (int i = i0 + r; i < i1; i += P)
            acc += A[(size_t)i * m + j] * x[i];
    }
    part[r][c] = acc;
    __syncthreads();
    if (r == 0 && j < m) {
        for (int w = 1; w < P; w++)
            acc += part[w][c];
        if (S == 1)
            y[j] = acc;
        else
            atomicAdd(&y[j], acc);
    }
}

/* 4 columns a thread (float4): a warp reads 512 contiguous bytes of a row;
 * T/32 warps are the row phases; S row slices, atomicAdd */
template <int T, int S, int U>
__global__ void __launch_bounds__(T) col_vec4(int n, int m, const float *A, const float *x, float *y)
{
    constexpr int P = T / 32;
    __shared__ float4 part[P][32];
    const int lane = threadIdx.x % 32, r = threadIdx.x / 32;
    const int j = blockIdx.x * 128 + lane * 4;
    const int rows = (n + S - 1) / S, i0 = blockIdx.y * rows, i1 = min(n, i0 + rows);
    float4 acc = make_float4(0, 0, 0, 0);
    if (j < m) {
#pragma unroll U
        for (int i = i0 + r; i < i1; i += P) {
            const float4 a = *(const float4 *)&A[(size_t)i * m + j];
            const float xi = x[i];
            acc.x += a.x * xi, acc.y += a.y * xi, acc.z += a.z * xi, acc.w += a.w * xi;
        }
    }
    part[r][lane] = acc;
    __syncthreads();
    if (r == 0 && j < m) {
        for (int w = 1; w < P; w++)
            acc.x += part[w][lane].x, acc.y += part[w][lane].y, acc.z += part[w][lane].z,
                acc.w += part[w][lane].w;
        atomicAdd(&y[j], acc.x), atomicAdd(&y[j + 1], acc.y), atomicAdd(&y[j + 2], acc.z),
            atomicAdd(&y[j + 3], acc.w);
    }
}

/* a warp a row, U float4 loads of the row in flight (independent sums) */
template <int U>
__global__ void __launch_bounds__(256) row_warp_vec(int rows, int n, const float *A, const float *x, float *out)
{
    const int lane = threadIdx.x % 32;
    const int i = blockIdx.x * 8 + threadIdx.x / 32;
    if (i >= rows)
        return;
    float acc[U];
#pragma unroll
    for (int u = 0; u < U; u++)
        acc[u] = 0;
    const float *row = A + (size_t)i * n;
    int j = lane * 4;
    for (; j + 128 * (U - 1) + 3 < n; j += 128 * U) {
        float4 a[U], b[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            a[u] = *(const float4 *)&row[j + 128 * u], b[u] = *(const float4 *)&x[j + 128 * u];
#pragma unroll
        for (int u = 0; u < U; u++)
            acc[u] += a[u].x * b[u].x + a[u].y * b[u].y + a[u].z * b[u].z + a[u].w * b[u].w;
    }
    for (; j + 3 < n; j += 128) {
        const float4 a = *(const float4 *)&row[j], b = *(const float4 *)&x[j];
        acc[0] += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    }
    float s = 0;
#pragma unroll
    for (int u = 0; u < U; u++)
        s += acc[u];
    for (int o = 16; o > 0; o /= 2)
        s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0)
        out[i] = s;
}

static int bad_count(const std::vector<float> &ref, const std::vector<float> &got, const std::vector<float> &scale)
{
    int bad = 0;
    for (size_t e = 0; e < ref.size(); e++)
        bad += !(fabs((double)ref[e] - got[e]) <= 1e-5 * scale[e]);
    return bad;
}

struct variant {
    const char *name;
    std::function<void()> run;
    bool atomic; /* adds into y: zero it first */
};

static int sums(int n)
{
    CHECK(cudaMemcpyToSymbol(d_M, &n, sizeof n));
    size_t na = (size_t)n * n;
    std::vector<float> h(na + n);
    srand(13);
    for (float &v : h)
        v = (float)rand() / RAND_MAX - 0.5f;
    float *A, *x, *y, *copy;
    CHECK(cudaMalloc(&A, na * sizeof(float)));
    CHECK(cudaMalloc(&copy, na * sizeof(float)));
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&y, n * sizeof(float)));
    CHECK(cudaMemcpy(A, h.data(), na * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(x, h.data() + na, n * sizeof(float), cudaMemcpyHostToDevice));
    float tc = time_ms([&] { CHECK(cudaMemcpyAsync(copy, A, na * sizeof(float), cudaMemcpyDeviceToDevice)); }, 9);
    double copy_gbs = 2.0 * na * 4 / tc / 1e6, bytes = (double)na * 4 + 2.0 * n * 4;
    printf("\n%d x %d floats (%.0f MiB): device copy %.0f GB/s\n", n, n, na * 4 / 1048576.0, copy_gbs);
    int bad = 0;
    for (int dir = 0; dir < 2; dir++) {
        unsigned gx = (n + 255) / 256;
        std::vector<variant> vs;
        std::vector<float> scale(n);
        for (int k = 0; k < n; k++) {
            double s = 0;
            for (int l = 0; l < n; l++)
                s += dir == 0 ? fabs((double)h[(size_t)l * n + k] * h[na + l])
                              : fabs((double)h[(size_t)k * n + l] * h[na + l]);
            scale[k] = (float)s;
        }
        if (dir == 0) {
            printf(" column sums\n");
            vs = {
                {"original", [&] { col_naive<<<gx, 256>>>(n, n, A, x, y); }, false},
                {"col_split (as written)", [&] { col_sum_split32<<<dim3(gx, 8), 256>>>(n, A, x, y); }, false},
                {"col_split8 (as written)", [&] { col_sum_split8<<<dim3(gx, 32), 256>>>(n, A, x, y); }, false},
                {"W8 T256", [&] { col_phases<8, 256, 1, 8><<<dim3(n / 8, 1), 256>>>(n, n, A, x, y); }, false},
                {"W32 T1024", [&] { col_phases<32, 1024, 1, 8><<<dim3(n / 32, 1), 1024>>>(n, n, A, x, y); }, false},
                {"W32 T256 S4", [&] { col_phases<32, 256, 4, 8><<<dim3(n / 32, 4), 256>>>(n, n, A, x, y); }, true},
                {"W32 T256 S8", [&] { col_phases<32, 256, 8, 8><<<dim3(n / 32, 8), 256>>>(n, n, A, x, y); }, true},
                {"W32 T256 S16", [&] { col_phases<32, 256, 16, 8><<<dim3(n / 32, 16), 256>>>(n, n, A, x, y); }, true},
                {"W64 T256 S8", [&] { col_phases<64, 256, 8, 8><<<dim3(n / 64, 8), 256>>>(n, n, A, x, y); }, true},
                {"vec4 T256 S8", [&] { col_vec4<256, 8, 4><<<dim3(n / 128, 8), 256>>>(n, n, A, x, y); }, true},
                {"vec4 T256 S16", [&] { col_vec4<256, 16, 4><<<dim3(n / 128, 16), 256>>>(n, n, A, x, y); }, true},
                {"vec4 T256 S32", [&] { col_vec4<256, 32, 4><<<dim3(n / 128, 32), 256>>>(n, n, A, x, y); }, true},
                {"vec4 T512 S16", [&] { col_vec4<512, 16, 4><<<dim3(n / 128, 16), 512>>>(n, n, A, x, y); }, true},
            };
        } else {
            printf(" row sums\n");
            vs = {
                {"original", [&] { row_naive<<<gx, 256>>>(n, n, A, x, y); }, false},
                {"wide_rows_vec (as written)", [&] { row_dot_n_wide_rows_vec<<<dim3(gx, 32), 256>>>(n, n, A, x, y); }, false},
                {"warp row U1", [&] { row_warp_vec<1><<<(n + 7) / 8, 256>>>(n, n, A, x, y); }, false},
                {"warp row U2", [&] { row_warp_vec<2><<<(n + 7) / 8, 256>>>(n, n, A, x, y); }, false},
                {"warp row U4", [&] { row_warp_vec<4><<<(n + 7) / 8, 256>>>(n, n, A, x, y); }, false},
                {"warp row U8", [&] { row_warp_vec<8><<<(n + 7) / 8, 256>>>(n, n, A, x, y); }, false},
            };
        }
        CHECK(cudaMemset(y, 0, n * sizeof(float)));
        vs[0].run();
        std::vector<float> ref = fetch(y, n);
        float t0 = 0;
        for (auto &v : vs) {
            CHECK(cudaMemset(y, 0, n * sizeof(float)));
            v.run();
            int b = bad_count(ref, fetch(y, n), scale);
            bad |= b != 0;
            float t = time_ms(v.run, 9);
            if (!t0)
                t0 = t;
            printf("  %-28s %9.4f ms %7.0f GB/s %5.1f%% of copy %7.2fx%s\n", v.name, t, bytes / t / 1e6,
                   100 * bytes / t / 1e6 / copy_gbs, t0 / t, b ? "  MISMATCH" : "");
        }
    }
    cudaFree(A), cudaFree(copy), cudaFree(x), cudaFree(y);
    return bad;
}

int main(int argc, char **argv)
{
    int bad = argc > 1 ? sums(atoi(argv[1])) : sums(4096) | sums(2048);
    printf("%s\n", bad ? "FAIL" : "all results ok");
    return bad;
}
