// tile_dot_check.cu: the fixture gemm (testsuite/policy/fixtures/dots.cu,
// PolyBench's gemm kernel with run-time sizes) against its tile_dot32,
// tile_dot64, tile_dot128, tile_dot32_split4, tile_dot64_split4,
// tile_dot64_ahead2 and tile_dot32_split4_ahead2 variants as the transform
// writes them (the policy goldens
// testsuite/policy/expected/gemm.tile_dot{32,64,128,32_split4,64_split4,64_ahead2,32_split4_ahead2}distinctshape32x8x1.cu,
// which the policy golden tests hold to the transform's output), on the
// original's launch (32x8 blocks): results compared with the original's,
// time and TFLOP/s of each.
//   nvcc -O3 -arch=sm_90 -o tile_dot_check testsuite/bench/tile_dot_check.cu
//   ./tile_dot_check [N [REPS]]     (N x N x N, default 2048; a few odd sizes are checked too)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#include "../policy/fixtures/dots.cu"
#define gemm gemm_tile_dot32
#include "../policy/expected/gemm.tile_dot32distinctshape32x8x1.cu"
#undef gemm
#define gemm gemm_tile_dot64
#include "../policy/expected/gemm.tile_dot64distinctshape32x8x1.cu"
#undef gemm
#define gemm gemm_tile_dot128
#include "../policy/expected/gemm.tile_dot128distinctshape32x8x1.cu"
#undef gemm
#define gemm gemm_tile_dot32_split4
#include "../policy/expected/gemm.tile_dot32_split4distinctshape32x8x1.cu"
#undef gemm
#define gemm gemm_tile_dot64_split4
#include "../policy/expected/gemm.tile_dot64_split4distinctshape32x8x1.cu"
#undef gemm
#define gemm gemm_tile_dot64_ahead2
#include "../policy/expected/gemm.tile_dot64_ahead2distinctshape32x8x1.cu"
#undef gemm
#define gemm gemm_tile_dot32_split4_ahead2
#include "../policy/expected/gemm.tile_dot32_split4_ahead2distinctshape32x8x1.cu"
#undef gemm

#include "bench_cuda.h"

typedef void (*gemm_fn)(int, int, int, float, float, float *, float *, float *);

struct problem {
    int ni, nj, nk;
    float *a, *b, *c0, *c;
};

static void launch(gemm_fn fn, const problem &p)
{
    dim3 block(32, 8), grid((p.nj + 31) / 32, (p.ni + 7) / 8);
    fn<<<grid, block>>>(p.ni, p.nj, p.nk, 1.5f, 1.2f, p.a, p.b, p.c);
}

/* median time of reps launches, C restored before each */
static float time_ms(gemm_fn fn, const problem &p, int reps)
{
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    std::vector<float> ms;
    for (int r = 0; r < reps + 2; r++) {
        CHECK(cudaMemcpy(p.c, p.c0, sizeof(float) * p.ni * p.nj, cudaMemcpyDeviceToDevice));
        CHECK(cudaEventRecord(e0));
        launch(fn, p);
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float t;
        CHECK(cudaEventElapsedTime(&t, e0, e1));
        if (r >= 2)
            ms.push_back(t);
    }
    CHECK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

static std::vector<float> run_once(gemm_fn fn, const problem &p)
{
    CHECK(cudaMemcpy(p.c, p.c0, sizeof(float) * p.ni * p.nj, cudaMemcpyDeviceToDevice));
    launch(fn, p);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<float> out((size_t)p.ni * p.nj);
    CHECK(cudaMemcpy(out.data(), p.c, sizeof(float) * out.size(), cudaMemcpyDeviceToHost));
    return out;
}

static problem make(int ni, int nj, int nk)
{
    problem p = {ni, nj, nk, 0, 0, 0, 0};
    std::vector<float> h((size_t)std::max(ni, nj) * std::max(nj, nk) + (size_t)ni * nk);
    srand(7);
    for (float &x : h)
        x = (float)rand() / RAND_MAX - 0.25f;
    CHECK(cudaMalloc(&p.a, sizeof(float) * ni * nk));
    CHECK(cudaMalloc(&p.b, sizeof(float) * nk * nj));
    CHECK(cudaMalloc(&p.c0, sizeof(float) * ni * nj));
    CHECK(cudaMalloc(&p.c, sizeof(float) * ni * nj));
    CHECK(cudaMemcpy(p.a, h.data(), sizeof(float) * ni * nk, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(p.b, h.data() + 1, sizeof(float) * nk * nj, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(p.c0, h.data() + 2, sizeof(float) * ni * nj, cudaMemcpyHostToDevice));
    return p;
}

static void release(problem &p)
{
    cudaFree(p.a), cudaFree(p.b), cudaFree(p.c0), cudaFree(p.c);
}

/* the variant's output against the original's: |d| <= 1e-5 * (|ref| + sum of
 * |terms| bound ~ nk) -- a reordered sum would pass; equal bits counted */
static int compare(const char *name, const problem &p, const std::vector<float> &ref,
                   const std::vector<float> &got)
{
    size_t bad = 0, exact = 0;
    double worst = 0;
    for (size_t e = 0; e < ref.size(); e++) {
        double d = fabs((double)ref[e] - got[e]), tol = 1e-5 * (fabs(ref[e]) + p.nk);
        exact += ref[e] == got[e];
        worst = std::max(worst, d);
        bad += !(d <= tol);
    }
    printf("  %-24s %dx%dx%d: %s (max |diff| %.3g, %zu of %zu bit-equal)\n", name, p.ni, p.nj, p.nk,
           bad ? "MISMATCH" : "ok", worst, exact, ref.size());
    return bad != 0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2048, reps = argc > 2 ? atoi(argv[2]) : 10;
    const struct { const char *name; gemm_fn fn; } variants[] = {
        {"tile_dot32", gemm_tile_dot32},        {"tile_dot64", gemm_tile_dot64},
        {"tile_dot128", gemm_tile_dot128},      {"tile_dot32_split4", gemm_tile_dot32_split4},
        {"tile_dot64_split4", gemm_tile_dot64_split4},  {"tile_dot64_ahead2", gemm_tile_dot64_ahead2},
        {"tile_dot32_split4_ahead2", gemm_tile_dot32_split4_ahead2}};
    int fail = 0;
    /* correctness on sizes the tiles and float4 do and do not divide */
    const int odd[][3] = {{n, n, n}, {1000, 1000, 1000}, {333, 517, 129}, {5, 7, 3}, {130, 64, 1001}};
    printf("results:\n");
    for (auto &s : odd) {
        problem p = make(s[0], s[1], s[2]);
        std::vector<float> ref = run_once(gemm, p);
        for (auto &v : variants)
            fail |= compare(v.name, p, ref, run_once(v.fn, p));
        release(p);
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("times on %s, %dx%dx%d, median of %d:\n", prop.name, n, n, n, reps);
    problem p = make(n, n, n);
    double flop = 2.0 * n * (double)n * n;
    float t0 = time_ms(gemm, p, reps);
    printf("  %-24s %9.3f ms %7.2f TFLOP/s\n", "original", t0, flop / t0 / 1e9);
    for (auto &v : variants) {
        float t = time_ms(v.fn, p, reps);
        printf("  %-24s %9.3f ms %7.2f TFLOP/s  %.2fx\n", v.name, t, flop / t / 1e9, t0 / t);
    }
    release(p);
    return fail;
}
