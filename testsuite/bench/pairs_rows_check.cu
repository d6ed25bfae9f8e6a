// pairs_rows_check.cu: two of the catalogue's newer transforms against the
// original and the transform they improve on, as the policy writes them (the
// goldens under testsuite/policy/expected/, which the policy golden tests
// hold to the transforms' output), each on its own launch rule:
//   covariance's kernel (fixtures/pairs.cu covar, m = n = 2048 by default):
//     the original (a row a thread), split_loop256 (grid 256 times as tall),
//     tile_pairs64 (grid 64 times as tall); TFLOP/s of the m(m+1)/2 n-long
//     dot products;
//   a matrix-vector row kernel (fixtures/rows.cu row_dot_n, 8192 x 8192
//     floats, 256 MiB): the original, wide_rows, wide_rows_vec (grid 32
//     times as tall); GB/s against a device-to-device copy of the matrix.
// Results are compared with the original's (equal bits counted; sums
// reassociated by wide_rows* within 1e-5 of the terms' magnitude).
//   nvcc -O3 -arch=sm_90 -o pairs_rows_check testsuite/bench/pairs_rows_check.cu
//   ./pairs_rows_check [M [ROWS]]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "bench_cuda.h"

#include "../policy/fixtures/pairs.cu"
#define covar covar_split_loop256
#include "../policy/expected/covar.split_loop256distinctshape256x1x1flatgrid.cu"
#undef covar
#define covar covar_tile_pairs64
#include "../policy/expected/covar.tile_pairs64distinctshape256x1x1flatgrid.cu"
#undef covar

#include "../policy/fixtures/rows.cu"
#define row_dot_n row_dot_n_wide_rows
#include "../policy/expected/row_dot_n.wide_rowsdistinctshape256x1x1flatgrid.cu"
#undef row_dot_n
#define row_dot_n row_dot_n_wide_rows_vec
#include "../policy/expected/row_dot_n.wide_rows_vecdistinctshape256x1x1flatgrid.cu"
#undef row_dot_n

/* bad elements (beyond tol * scale[e]) and bit-equal ones */
static int compare(const char *name, const std::vector<float> &ref, const std::vector<float> &got,
                   const std::vector<float> &scale, double tol)
{
    size_t bad = 0, exact = 0;
    for (size_t e = 0; e < ref.size(); e++) {
        exact += ref[e] == got[e];
        bad += !(fabs((double)ref[e] - got[e]) <= tol * scale[e]);
    }
    printf("  %-22s %s: %zu of %zu bit-equal, %zu beyond tolerance\n", name, bad ? "MISMATCH" : "ok", exact,
           ref.size(), bad);
    return bad != 0;
}

static int pairs(int m)
{
    int n = m;
    size_t nd = (size_t)n * m, ns = (size_t)m * m;
    std::vector<float> h(nd);
    srand(11);
    for (float &x : h)
        x = (float)rand() / RAND_MAX - 0.5f;
    float *data, *sym;
    CHECK(cudaMalloc(&data, nd * sizeof(float)));
    CHECK(cudaMalloc(&sym, ns * sizeof(float)));
    CHECK(cudaMemcpy(data, h.data(), nd * sizeof(float), cudaMemcpyHostToDevice));
    unsigned gx = (m + 255) / 256;
    auto original = [&] { covar<<<dim3(gx, 1), 256>>>(m, n, sym, data); };
    auto split = [&] { covar_split_loop256<<<dim3(gx, 256), 256>>>(m, n, sym, data); };
    auto tiled = [&] { covar_tile_pairs64<<<dim3(gx, 64), 256>>>(m, n, sym, data); };
    CHECK(cudaMemset(sym, 0, ns * sizeof(float)));
    original();
    std::vector<float> ref = fetch(sym, ns), scale(ns, (float)n);
    int bad = 0;
    printf("covariance %d x %d (%.2f GFLOP):\n", m, n, (double)m * (m + 1) / 2 * n * 2 / 1e9);
    const struct {
        const char *name;
        std::function<void()> run;
    } vs[] = {{"split_loop256", split}, {"tile_pairs64", tiled}};
    float t0 = time_ms(original, 1);
    double flop = (double)m * (m + 1) / 2 * n * 2;
    printf("  %-22s %10.3f ms %8.2f TFLOP/s\n", "original", t0, flop / t0 / 1e9);
    for (auto &v : vs) {
        CHECK(cudaMemset(sym, 0, ns * sizeof(float)));
        v.run();
        bad |= compare(v.name, ref, fetch(sym, ns), scale, 1e-5);
        float t = time_ms(v.run, 5);
        printf("  %-22s %10.3f ms %8.2f TFLOP/s %8.1fx\n", v.name, t, flop / t / 1e9, t0 / t);
    }
    cudaFree(data), cudaFree(sym);
    return bad;
}

static int rows(int r)
{
    int n = r;
    size_t na = (size_t)r * n;
    std::vector<float> h(na + n);
    srand(12);
    for (float &x : h)
        x = (float)rand() / RAND_MAX - 0.5f;
    float *A, *x, *out, *copy;
    CHECK(cudaMalloc(&A, na * sizeof(float)));
    CHECK(cudaMalloc(&copy, na * sizeof(float)));
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&out, r * sizeof(float)));
    CHECK(cudaMemcpy(A, h.data(), na * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(x, h.data() + na, n * sizeof(float), cudaMemcpyHostToDevice));
    unsigned gx = (r + 255) / 256;
    auto original = [&] { row_dot_n<<<dim3(gx, 1), 256>>>(r, n, A, x, out); };
    auto wide = [&] { row_dot_n_wide_rows<<<dim3(gx, 32), 256>>>(r, n, A, x, out); };
    auto wide_vec = [&] { row_dot_n_wide_rows_vec<<<dim3(gx, 32), 256>>>(r, n, A, x, out); };
    original();
    std::vector<float> ref = fetch(out, r), scale(r);
    for (int i = 0; i < r; i++) {
        double s = 0;
        for (int j = 0; j < n; j++)
            s += fabs((double)h[(size_t)i * n + j] * h[na + j]);
        scale[i] = (float)s;
    }
    double bytes = (double)na * 4 + n * 4 + (double)r * 8;
    float tc = time_ms([&] { CHECK(cudaMemcpyAsync(copy, A, na * sizeof(float), cudaMemcpyDeviceToDevice)); }, 5);
    double copy_gbs = 2.0 * na * 4 / tc / 1e6;
    printf("row sums %d x %d (%.0f MiB): device copy %.0f GB/s\n", r, n, na * 4 / 1048576.0, copy_gbs);
    float t0 = time_ms(original, 3);
    printf("  %-22s %10.3f ms %8.0f GB/s %6.1f%% of copy\n", "original", t0, bytes / t0 / 1e6,
           100 * bytes / t0 / 1e6 / copy_gbs);
    const struct {
        const char *name;
        std::function<void()> run;
    } vs[] = {{"wide_rows", wide}, {"wide_rows_vec", wide_vec}};
    int bad = 0;
    for (auto &v : vs) {
        v.run();
        bad |= compare(v.name, ref, fetch(out, r), scale, 1e-5);
        float t = time_ms(v.run, 9);
        printf("  %-22s %10.3f ms %8.0f GB/s %6.1f%% of copy %6.1fx\n", v.name, t, bytes / t / 1e6,
               100 * bytes / t / 1e6 / copy_gbs, t0 / t);
    }
    cudaFree(A), cudaFree(copy), cudaFree(x), cudaFree(out);
    return bad;
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 2048, r = argc > 2 ? atoi(argv[2]) : 8192;
    int bad = pairs(m) | pairs(333) | rows(r) | rows(4097);
    printf("%s\n", bad ? "FAIL" : "all results ok");
    return bad;
}
