#!/bin/sh
# emulate.sh POL_TOOL SRC_DIR: the variants of spread, interchange,
# split_loop, regblock, col_split, warp_rows, wide_rows, wide_rows_vec, block_reduce,
# vec_loads, the block reshapes (block_wide2/4, block_narrow2) and the
# grid-stride loops (grid_stride4/16, grid_sm on grids of any width) and
# stencil_tile (on the block it was made for and on others) compute what the original kernel computes, element
# for element, on grids of several shapes (block sizes that divide and do
# not, grid heights 1..9 for spread's copy, up to 256 for split_loop's,
# matrices that regblock's tiles divide and do not), run on the CPU through
# emulate.h with g++ (regblock's barriers and shared tiles through
# emu_launch_synced's coroutines).
set -u
tool=$1 src=$2
. "$(dirname "$0")/emulate_lib.sh"
variant() { # FIXTURE KERNEL COMBO FLAGS...: the variant renamed KERNEL_variant
    fixture=$1 kernel=$2 combo=$3
    shift 3
    "$tool" "$src/fixtures/$fixture" "$kernel" "$combo" "$@" >"$tmp/v.cu" || exit 1
    if grep -q '^refused: ' "$tmp/v.cu"; then echo "FAIL: $kernel $combo: $(cat "$tmp/v.cu")"; exit 1; fi
    sed "s/void $kernel(/void ${kernel}_variant(/" "$tmp/v.cu"
}
{
    echo '#include "emulate.h"'
    cat "$src/fixtures/spread.cu"
    variant spread.cu sweep spread --shape 256,1,1 --flat-grid
    variant spread.cu column_mean spread --shape 1024,1,1 --flat-grid
    cat <<'CPP'
static int check_sweep(unsigned blocks, unsigned threads, unsigned height)
{
    size_t n = (size_t)N * N;
    float *x0 = new float[n], *x1 = new float[n], *a = new float[n], *b = new float[n];
    emu_fill(x0, n, 1), emu_fill(x1, n, 1), emu_fill(a, n, 2), emu_fill(b, n, 3);
    emu_launch({blocks, 1, 1}, {threads, 1, 1}, [&] { sweep(x0, a, b); });
    emu_launch({blocks, height, 1}, {threads, 1, 1}, [&] { sweep_variant(x1, a, b); });
    char what[96];
    snprintf(what, sizeof what, "sweep, %u blocks of %u, grid %u high", blocks, threads, height);
    int bad = emu_same(what, x0, x1, n * sizeof *x0);
    delete[] x0, delete[] x1, delete[] a, delete[] b;
    return bad;
}
static int check_mean(unsigned threads, unsigned height)
{
    int m = 3000, rows = 7;
    double *data = new double[(size_t)m * rows], *m0 = new double[m], *m1 = new double[m];
    emu_fill(data, (size_t)m * rows, 4), emu_fill(m0, m, 5), emu_fill(m1, m, 5);
    unsigned blocks = (m + threads - 1) / threads;
    emu_launch({blocks, 1, 1}, {threads, 1, 1}, [&] { column_mean(m, rows, data, m0); });
    emu_launch({blocks, height, 1}, {threads, 1, 1}, [&] { column_mean_variant(m, rows, data, m1); });
    char what[96];
    snprintf(what, sizeof what, "column_mean, blocks of %u, grid %u high", threads, height);
    int bad = emu_same(what, m0, m1, m * sizeof *m0);
    delete[] data, delete[] m0, delete[] m1;
    return bad;
}
int main()
{
    int bad = 0, runs = 0;
    for (unsigned h = 1; h <= 9; h++, runs += 3) {
        bad |= check_sweep(4, 256, h);
        bad |= check_sweep(11, 100, h); /* 100 threads: slices that do not divide */
        bad |= check_mean(h == 9 ? 1024 : 96 + 32 * h, h);
    }
    printf("spread: %d emulated runs\n", runs);
    return bad;
}
CPP
} >"$tmp/spread.cpp"
{
    echo '#include "emulate.h"'
    cat "$src/fixtures/transposed.cu"
    variant transposed.cu scale_rows interchange
    variant transposed.cu smooth interchange
    cat <<'CPP'
static int check(emu_dim3 grid, emu_dim3 block)
{
    size_t n = (size_t)NI * NJ;
    float *a = new float[n], *b0 = new float[n], *b1 = new float[n];
    emu_fill(a, n, 6), emu_fill(b0, n, 7), emu_fill(b1, n, 7);
    emu_launch(grid, block, [&] { scale_rows(a, b0, 1.5f); });
    emu_launch(grid, block, [&] { scale_rows_variant(a, b1, 1.5f); });
    char what[128];
    snprintf(what, sizeof what, "scale_rows, grid %ux%u of %ux%u", grid.x, grid.y, block.x, block.y);
    int bad = emu_same(what, b0, b1, n * sizeof *b0);
    int sn = 300;
    double *in = new double[sn * sn], *w = new double[sn], *o0 = new double[sn * sn], *o1 = new double[sn * sn];
    emu_fill(in, sn * sn, 8), emu_fill(w, sn, 9), emu_fill(o0, sn * sn, 10), emu_fill(o1, sn * sn, 10);
    emu_dim3 g2 = {(sn + block.x - 1) / block.x, (sn + block.y - 1) / block.y, 1};
    emu_launch(g2, block, [&] { smooth(sn, in, w, o0); });
    emu_launch(g2, block, [&] { smooth_variant(sn, in, w, o1); });
    snprintf(what, sizeof what, "smooth, grid %ux%u of %ux%u", g2.x, g2.y, block.x, block.y);
    bad |= emu_same(what, o0, o1, sn * sn * sizeof *o0);
    delete[] a, delete[] b0, delete[] b1, delete[] in, delete[] w, delete[] o0, delete[] o1;
    return bad;
}
int main()
{
    int bad = check({32, 128, 1}, {32, 8, 1});
    bad |= check({64, 64, 1}, {16, 16, 1});
    bad |= check({40, 30, 1}, {30, 40, 1}); /* a grid larger than the arrays */
    bad |= check({1024, 1, 1}, {1, 1024, 1});
    printf("interchange: 8 emulated runs\n");
    return bad;
}
CPP
} >"$tmp/interchange.cpp"
{
    echo '#include "emulate.h"'
    cat "$src/fixtures/split.cu"
    variant split.cu gram split_loop --distinct --shape 128,1,1 --flat-grid
    variant split.cu corr split_loop256 --distinct --shape 128,1,1 --flat-grid
    variant split.cu gram_ld split_loop --distinct --shape 128,1,1 --flat-grid
    cat <<'CPP'
template <class T, class K0, class K1>
static int check(const char *name, size_t n, unsigned blocks, unsigned threads, unsigned height, K0 k0, K1 k1)
{
    T *s0 = new T[n], *s1 = new T[n];
    emu_fill(s0, n, 11), emu_fill(s1, n, 11);
    emu_launch({blocks, 1, 1}, {threads, 1, 1}, [&] { k0(s0); });
    emu_launch({blocks, height, 1}, {threads, 1, 1}, [&] { k1(s1); });
    char what[128];
    snprintf(what, sizeof what, "%s, %u blocks of %u, grid %u high", name, blocks, threads, height);
    int bad = emu_same(what, s0, s1, n * sizeof *s0);
    delete[] s0, delete[] s1;
    return bad;
}
int main()
{
    float *data = new float[M * N];
    double *ddata = new double[M * N];
    emu_fill(data, M * N, 12), emu_fill(ddata, M * N, 13);
    const unsigned heights[] = {1, 2, 3, 7, 64, 256};
    const unsigned sizes[] = {32, 50, 128};
    int bad = 0, runs = 0;
    for (unsigned h : heights)
        for (unsigned t : sizes) {
            unsigned b = (M + t - 1) / t;
            bad |= check<float>("gram", M * M, b, t, h, [&](float *s) { gram(M, N, s, data); },
                                [&](float *s) { gram_variant(M, N, s, data); });
            bad |= check<double>("corr", M * M, b, t, h, [&](double *s) { corr(M, N, s, ddata); },
                                 [&](double *s) { corr_variant(M, N, s, ddata); });
            /* ld > m: split; ld < m: rows overlap, the original's loop */
            const int lds[] = {M + 3, M - 5};
            for (int ld : lds)
                bad |= check<float>(ld > M ? "gram_ld split" : "gram_ld fallback", (size_t)M * (M + 3), b, t, h,
                                    [&](float *s) { gram_ld(M, ld, s, data); },
                                    [&](float *s) { gram_ld_variant(M, ld, s, data); });
            runs += 4;
        }
    printf("split_loop: %d emulated runs\n", runs);
    delete[] data, delete[] ddata;
    return bad;
}
CPP
} >"$tmp/split.cpp"
{
    echo '#include "emulate.h"'
    cat "$src/fixtures/blocked.cu"
    for r in 2x1 2x2 4x2 4x4; do
        variant blocked.cu gemm_like "regblock$r" --distinct --shape 32,8,1 | sed "s/gemm_like_variant(/gemm_like_$r(/"
        variant blocked.cu gram_rows "regblock$r" --distinct --shape 32,8,1 | sed "s/gram_rows_variant(/gram_rows_$r(/"
        variant blocked.cu two_out "regblock$r" --distinct --shape 32,8,1 | sed "s/two_out_variant(/two_out_$r(/"
    done
    cat <<'CPP'
/* the original on 32x8 blocks against a variant on BLOCK (32x8: the
 * blocked path; other shapes: the original's path behind the check) */
template <class K1>
static int check_gemm(const char *name, int ni, int nj, int nk, emu_dim3 block, K1 variant)
{
    float *a = new float[ni * nk], *b = new float[nk * nj], *c0 = new float[ni * nj], *c1 = new float[ni * nj];
    emu_fill(a, ni * nk, 14), emu_fill(b, nk * nj, 15), emu_fill(c0, ni * nj, 16), emu_fill(c1, ni * nj, 16);
    emu_launch({(nj + 31) / 32u, (ni + 7) / 8u, 1}, {32, 8, 1},
               [&] { gemm_like(ni, nj, nk, 1.5f, 0.75f, a, b, c0); });
    emu_launch_synced({(nj + block.x - 1) / block.x, (ni + block.y - 1) / block.y, 1}, block,
                      [&] { variant(ni, nj, nk, 1.5f, 0.75f, a, b, c1); });
    char what[128];
    snprintf(what, sizeof what, "gemm_like %s, %dx%dx%d on %ux%u blocks", name, ni, nj, nk, block.x, block.y);
    int bad = emu_same(what, c0, c1, ni * nj * sizeof *c0);
    delete[] a, delete[] b, delete[] c0, delete[] c1;
    return bad;
}
template <class K1> static int check_gram(const char *name, int n, int m, K1 variant)
{
    double *a = new double[n * m], *c0 = new double[n * n], *c1 = new double[n * n];
    emu_fill(a, n * m, 17), emu_fill(c0, n * n, 18), emu_fill(c1, n * n, 18);
    emu_dim3 grid = {(n + 31) / 32u, (n + 7) / 8u, 1};
    emu_launch(grid, {32, 8, 1}, [&] { gram_rows(n, m, a, c0); });
    emu_launch_synced(grid, {32, 8, 1}, [&] { variant(n, m, a, c1); });
    char what[128];
    snprintf(what, sizeof what, "gram_rows %s, %dx%d", name, n, m);
    int bad = emu_same(what, c0, c1, n * n * sizeof *c0);
    delete[] a, delete[] c0, delete[] c1;
    return bad;
}
template <class K1> static int check_two_out(const char *name, int n, K1 variant)
{
    size_t nn = (size_t)n * n;
    float *a = new float[nn], *b = new float[nn], *c0 = new float[nn], *c1 = new float[nn];
    float *d0 = new float[nn], *d1 = new float[nn];
    emu_fill(a, nn, 19), emu_fill(b, nn, 20), emu_fill(c0, nn, 21), emu_fill(c1, nn, 21);
    emu_fill(d0, nn, 22), emu_fill(d1, nn, 22);
    emu_dim3 grid = {(n + 31) / 32u, (n + 7) / 8u, 1};
    emu_launch(grid, {32, 8, 1}, [&] { two_out(n, a, b, c0, d0); });
    emu_launch_synced(grid, {32, 8, 1}, [&] { variant(n, a, b, c1, d1); });
    char what[128];
    snprintf(what, sizeof what, "two_out %s, %dx%d", name, n, n);
    int bad = emu_same(what, c0, c1, nn * sizeof *c0) | emu_same(what, d0, d1, nn * sizeof *d0);
    delete[] a, delete[] b, delete[] c0, delete[] c1, delete[] d0, delete[] d1;
    return bad;
}
int main()
{
    /* sizes that the tiles divide, that they do not, and smaller than one tile */
    const int sizes[][3] = {{128, 64, 64}, {70, 45, 37}, {5, 3, 2}, {136, 100, 33}};
    int bad = 0, runs = 0;
    for (auto &s : sizes) {
        bad |= check_gemm("2x1", s[0], s[1], s[2], {32, 8, 1}, gemm_like_2x1);
        bad |= check_gemm("2x2", s[0], s[1], s[2], {32, 8, 1}, gemm_like_2x2);
        bad |= check_gemm("4x2", s[0], s[1], s[2], {32, 8, 1}, gemm_like_4x2);
        bad |= check_gemm("4x4", s[0], s[1], s[2], {32, 8, 1}, gemm_like_4x4);
        bad |= check_gemm("4x4", s[0], s[1], s[2], {16, 16, 1}, gemm_like_4x4);
        bad |= check_gram("2x1", s[0], s[2], gram_rows_2x1);
        bad |= check_gram("2x2", s[0], s[2], gram_rows_2x2);
        bad |= check_gram("4x2", s[0], s[2], gram_rows_4x2);
        bad |= check_gram("4x4", s[0], s[2], gram_rows_4x4);
        bad |= check_two_out("2x2", s[1], two_out_2x2);
        bad |= check_two_out("4x2", s[1], two_out_4x2);
        bad |= check_two_out("4x4", s[1], two_out_4x4);
        runs += 12;
    }
    printf("regblock: %d emulated runs\n", runs);
    return bad;
}
CPP
} >"$tmp/regblock.cpp"
{
    echo '#include "emulate.h"'
    cat "$src/fixtures/columns.cu"
    variant columns.cu col_sum col_split --distinct --shape 256,1,1 --flat-grid | sed "s/col_sum_variant(/col_sum_256(/"
    variant columns.cu col_sum col_split --distinct --shape 32,8,1 --flat-grid | sed "s/col_sum_variant(/col_sum_32x8(/"
    variant columns.cu col_sum col_split16 --distinct --shape 32,8,1 --flat-grid | sed "s/col_sum_variant(/col_sum_16_32x8(/"
    variant columns.cu col_std col_split16 --distinct --shape 128,1,1 --flat-grid
    variant columns.cu col_sum col_split8 --distinct --shape 256,1,1 --flat-grid | sed "s/col_sum_variant(/col_sum_8_256(/"
    variant columns.cu col_sum col_split4 --distinct --shape 256,1,1 --flat-grid | sed "s/col_sum_variant(/col_sum_4_256(/"
    variant columns.cu col_update col_split4 --distinct --shape 256,1,1 --flat-grid |
        sed "s/col_update_variant(/col_update_4(/"
    variant columns.cu two_cols col_split --distinct --shape 64,1,1 --flat-grid
    variant columns.cu col_update col_split8 --distinct --shape 256,1,1 --flat-grid
    variant columns.cu col_sum_early col_split8 --distinct --shape 256,1,1 --flat-grid |
        sed "s/col_sum_early_variant(/col_sum_early_8_256(/"
    variant columns.cu col_seeded col_split8 --distinct --shape 256,1,1 --flat-grid
    variant columns.cu col_rescaled col_split8 --distinct --shape 256,1,1 --flat-grid
    cat <<'CPP'
/* the original on its captured block shape (y duplicates of each column
 * in a 32x8 block compute the same) against the variant on BLOCK (other
 * shapes: the original's path behind the check) on a grid HEIGHT high */
template <class K1>
static int check_sum(const char *name, int n, emu_dim3 block0, emu_dim3 block, unsigned height, K1 variant)
{
    float *a = new float[n * M], *tmp = new float[n], *y0 = new float[M], *y1 = new float[M];
    emu_fill_quarters(a, n * M, 23), emu_fill_quarters(tmp, n, 24);
    emu_fill(y0, M, 25), emu_fill(y1, M, 25);
    emu_launch({(M + block0.x - 1) / block0.x, 1, 1}, block0, [&] { col_sum(n, a, tmp, y0); });
    emu_launch_synced({(M + block.x - 1) / block.x, height, 1}, block, [&] { variant(n, a, tmp, y1); });
    char what[128];
    snprintf(what, sizeof what, "col_sum %s, %d rows, blocks of %ux%u, grid %u high", name, n, block.x,
             block.y, height);
    int bad = emu_same(what, y0, y1, M * sizeof *y0);
    delete[] a, delete[] tmp, delete[] y0, delete[] y1;
    return bad;
}
static int check_std(int n, unsigned threads, unsigned height)
{
    double *data = new double[n * M], *mean = new double[M], *s0 = new double[M], *s1 = new double[M];
    emu_fill_quarters(data, n * M, 26), emu_fill_quarters(mean, M, 27);
    emu_fill(s0, M, 28), emu_fill(s1, M, 28);
    emu_launch({(M + 127) / 128u, 1, 1}, {128, 1, 1}, [&] { col_std(n, mean, s0, data); });
    emu_launch_synced({(M + threads - 1) / threads, height, 1}, {threads, 1, 1},
                      [&] { col_std_variant(n, mean, s1, data); });
    char what[128];
    snprintf(what, sizeof what, "col_std, %d rows, blocks of %u, grid %u high", n, threads, height);
    int bad = emu_same(what, s0, s1, M * sizeof *s0);
    delete[] data, delete[] mean, delete[] s0, delete[] s1;
    return bad;
}
static int check_two(int n, unsigned height)
{
    float *a = new float[n * M], *b = new float[n * M], *s0 = new float[M], *s1 = new float[M];
    float *t0 = new float[M], *t1 = new float[M];
    int *c0 = new int[M], *c1 = new int[M];
    emu_fill_quarters(a, n * M, 29), emu_fill_quarters(b, n * M, 30);
    emu_fill_quarters(s0, M, 31), emu_fill_quarters(s1, M, 31), emu_fill_quarters(t0, M, 32);
    emu_fill_quarters(t1, M, 32);
    for (int j = 0; j < M; j++)
        c0[j] = c1[j] = j;
    emu_launch({(M + 63) / 64u, 1, 1}, {64, 1, 1}, [&] { two_cols(n, a, b, s0, c0, t0); });
    emu_launch_synced({(M + 63) / 64u, height, 1}, {64, 1, 1}, [&] { two_cols_variant(n, a, b, s1, c1, t1); });
    char what[128];
    snprintf(what, sizeof what, "two_cols, %d rows, grid %u high", n, height);
    int bad = emu_same(what, s0, s1, M * sizeof *s0) | emu_same(what, t0, t1, M * sizeof *t0) |
              emu_same(what, c0, c1, M * sizeof *c0);
    delete[] a, delete[] b, delete[] s0, delete[] s1, delete[] t0, delete[] t1, delete[] c0, delete[] c1;
    return bad;
}
/* the sum and the update split over row phases; ld 0: every update of a
 * column hits one element, and the run-time test keeps that loop in order */
template <class K1>
static int check_update(int n, int ld, int k, unsigned height, K1 variant)
{
    size_t na = (size_t)n * (ld > M ? ld : M);
    float *a0 = new float[na], *a1 = new float[na], *q = new float[na], *r0 = new float[M * M], *r1 = new float[M * M];
    emu_fill_quarters(a0, na, 43), emu_fill_quarters(a1, na, 43), emu_fill_quarters(q, na, 44);
    emu_fill_quarters(r0, M * M, 45), emu_fill_quarters(r1, M * M, 45);
    emu_launch({(M + 255) / 256u, 1, 1}, {256, 1, 1}, [&] { col_update(n, ld, a0, q, r0, k); });
    emu_launch_synced({(M + 255) / 256u, height, 1}, {256, 1, 1}, [&] { variant(n, ld, a1, q, r1, k); });
    char what[128];
    snprintf(what, sizeof what, "col_update, %d rows, ld %d, k %d, grid %u high", n, ld, k, height);
    int bad = emu_same(what, a0, a1, na * sizeof *a0) | emu_same(what, r0, r1, M * M * sizeof *r0);
    delete[] a0, delete[] a1, delete[] q, delete[] r0, delete[] r1;
    return bad;
}
/* an element set before the sum from another array (seeded) or from
 * itself (rescaled): the original against the variant, y not zero */
static int check_first_statement(int n, unsigned height)
{
    float *a = new float[n * M], *bias = new float[M], *y0 = new float[M], *y1 = new float[M];
    emu_fill_quarters(a, n * M, 46), emu_fill_quarters(bias, M, 47);
    int bad = 0;
    for (int rescaled = 0; rescaled < 2; rescaled++) {
        emu_fill_quarters(y0, M, 48), emu_fill_quarters(y1, M, 48);
        emu_launch({(M + 255) / 256u, 1, 1}, {256, 1, 1}, [&] {
            if (rescaled)
                col_rescaled(n, a, y0);
            else
                col_seeded(n, a, bias, y0);
        });
        emu_launch_synced({(M + 255) / 256u, height, 1}, {256, 1, 1}, [&] {
            if (rescaled)
                col_rescaled_variant(n, a, y1);
            else
                col_seeded_variant(n, a, bias, y1);
        });
        char what[128];
        snprintf(what, sizeof what, "%s, %d rows, grid %u high", rescaled ? "col_rescaled" : "col_seeded", n,
                 height);
        bad |= emu_same(what, y0, y1, M * sizeof *y0);
    }
    delete[] a, delete[] bias, delete[] y0, delete[] y1;
    return bad;
}
int main()
{
    int bad = 0, runs = 0;
    const int lds[] = {M, M + 3, 0};
    const unsigned update_heights[] = {1, 5, 32, 33};
    for (int ld : lds)
        for (unsigned h : update_heights) {
            bad |= check_update(300, ld, 0, h, col_update_variant) | check_update(7, ld, 5, h, col_update_variant);
            bad |= check_update(300, ld, 0, 2 * h, col_update_4) | check_update(7, ld, 5, 2 * h, col_update_4);
            runs += 4;
        }
    const int rows[] = {1000, 7, 1};
    for (int n : rows) {
        for (unsigned h = 1; h <= 9; h++, runs += 5) {
            bad |= check_sum("256", n, {256, 1, 1}, {256, 1, 1}, h, col_sum_256);
            bad |= check_sum("8 256", n, {256, 1, 1}, {256, 1, 1}, 4 * h, col_sum_8_256);
            bad |= check_sum("4 256", n, {256, 1, 1}, {256, 1, 1}, 8 * h, col_sum_4_256);
            runs++;
            bad |= check_sum("early return, 8 256", n, {256, 1, 1}, {256, 1, 1}, 4 * h, col_sum_early_8_256);
            bad |= check_first_statement(n, 4 * h);
            runs += 2;
            bad |= check_std(n, 128, h);
            bad |= check_two(n, h);
        }
        const unsigned heights[] = {1, 2, 3};
        for (unsigned h : heights) {
            bad |= check_sum("32x8", n, {32, 8, 1}, {32, 8, 1}, h, col_sum_32x8);
            bad |= check_sum("16 32x8", n, {32, 8, 1}, {32, 8, 1}, h, col_sum_16_32x8);
            bad |= check_sum("256 on 96", n, {256, 1, 1}, {96, 1, 1}, h, col_sum_256);
            bad |= check_std(n, 64, h); /* not the captured 128: the original's path */
            runs += 4;
        }
    }
    printf("col_split: %d emulated runs\n", runs);
    return bad;
}
CPP
} >"$tmp/columns.cpp"
{
    echo '#include "emulate.h"'
    cat "$src/fixtures/rows.cu"
    for c in warp_rows warp_rows4 warp_rows8; do
        variant rows.cu row_dot $c --distinct --shape 256,1,1 | sed "s/row_dot_variant(/row_dot_${c}_256(/"
    done
    for c in warp_rows warp_rows4; do
        variant rows.cu row_dot $c --distinct --shape 32,8,1 | sed "s/row_dot_variant(/row_dot_${c}_32x8(/"
    done
    variant rows.cu row_dot wide_rows --distinct --shape 256,1,1 --flat-grid | sed "s/row_dot_variant(/row_dot_wide(/"
    variant rows.cu row_dot wide_rows --distinct --shape 32,8,1 --flat-grid | sed "s/row_dot_variant(/row_dot_wide_32x8(/"
    variant rows.cu two_rows warp_rows8 --distinct --shape 128,1,1
    variant rows.cu row_dot wide_rows_vec --distinct --shape 256,1,1 --flat-grid | sed "s/row_dot_variant(/row_dot_wide_vec(/"
    variant rows.cu row_dot_n wide_rows_vec --distinct --shape 256,1,1 --flat-grid
    # an early return for the guard: against row_dot_n, the same rows
    variant rows.cu row_dot_early wide_rows_vec --distinct --shape 256,1,1 --flat-grid |
        sed "s/row_dot_early_variant(/row_dot_early_wide_vec(/"
    variant rows.cu row_dot_early warp_rows4 --distinct --shape 256,1,1 | sed "s/row_dot_early_variant(/row_dot_early_warp4(/"
    variant rows.cu row_dot_early stage --distinct --shape 256,1,1 | sed "s/row_dot_early_variant(/row_dot_early_stage(/"
    # the sum in a variable: against row_dot_n too
    variant rows.cu row_dot_sum wide_rows_vec --distinct --shape 256,1,1 --flat-grid |
        sed "s/row_dot_sum_variant(/row_dot_sum_wide_vec(/"
    variant rows.cu row_dot_sum warp_rows --distinct --shape 256,1,1 | sed "s/row_dot_sum_variant(/row_dot_sum_warp(/"
    printf '#define NL 2000\n#define DATA_TYPE float\n'
    sed -n '/^__global__ void norm(/,/^}/p' "$src/fixtures/lone.cu" | sed 's/\<N\>/NL/g'
    variant lone.cu norm block_reduce --shape 256,1,1 | sed 's/\<N\>/NL/g'
    cat <<'CPP'
/* the original on BLOCK0 against a variant on BLOCK (other shapes than the
 * captured: the original's path behind the check), grid HEIGHT high */
template <class K1>
static int check_dot(const char *name, emu_dim3 block0, emu_dim3 block, unsigned height, K1 variant)
{
    float *a = new float[N * M], *x = new float[M], *o0 = new float[N], *o1 = new float[N];
    emu_fill_quarters(a, N * M, 33), emu_fill_quarters(x, M, 34);
    emu_fill(o0, N, 35), emu_fill(o1, N, 35);
    emu_launch({(N + block0.x - 1) / block0.x, 1, 1}, block0, [&] { row_dot(M, a, x, o0); });
    emu_launch_synced({(N + block.x - 1) / block.x, height, 1}, block, [&] { variant(M, a, x, o1); });
    char what[128];
    snprintf(what, sizeof what, "row_dot %s, blocks of %ux%u, grid %u high", name, block.x, block.y, height);
    int bad = emu_same(what, o0, o1, N * sizeof *o0);
    delete[] a, delete[] x, delete[] o0, delete[] o1;
    return bad;
}
static int check_two_rows()
{
    double *a = new double[N * N], *b = new double[N * N], *x = new double[N];
    double *t0 = new double[N], *t1 = new double[N], *y0 = new double[N], *y1 = new double[N];
    emu_fill_quarters(a, N * N, 36), emu_fill_quarters(b, N * N, 37), emu_fill_quarters(x, N, 38);
    emu_fill_quarters(t0, N, 39), emu_fill_quarters(t1, N, 39), emu_fill_quarters(y0, N, 40);
    emu_fill_quarters(y1, N, 40);
    emu_launch({(N + 127) / 128, 1, 1}, {128, 1, 1}, [&] { two_rows(0.5f, 1.5f, a, b, t0, x, y0); });
    emu_launch_synced({(N + 127) / 128, 1, 1}, {128, 1, 1}, [&] { two_rows_variant(0.5f, 1.5f, a, b, t1, x, y1); });
    int bad = emu_same("two_rows warp_rows8", t0, t1, N * sizeof *t0) | emu_same("two_rows warp_rows8", y0, y1, N * sizeof *y0);
    delete[] a, delete[] b, delete[] x, delete[] t0, delete[] t1, delete[] y0, delete[] y1;
    return bad;
}
/* row_dot_n against VARIANT (NAME) on a grid HEIGHT high: rows of n
 * floats, A moved SHIFT floats off 16 bytes (the scalar path) */
typedef void dot_n_fn(int, int, const float *, const float *, float *);
static int check_dot_n(int rows, int n, unsigned shift, unsigned height, const char *name = "wide_rows_vec",
                       dot_n_fn *variant = row_dot_n_variant)
{
    float *a = new float[(size_t)rows * n + 4], *x = new float[n + 4], *o0 = new float[rows], *o1 = new float[rows];
    emu_fill_quarters(a, (size_t)rows * n + 4, 43), emu_fill_quarters(x, n + 4, 44);
    emu_fill(o0, rows, 45), emu_fill(o1, rows, 45);
    unsigned blocks = (rows + 255) / 256;
    emu_launch({blocks, 1, 1}, {256, 1, 1}, [&] { row_dot_n(rows, n, a + shift, x, o0); });
    emu_launch_synced({blocks, height, 1}, {256, 1, 1}, [&] { variant(rows, n, a + shift, x, o1); });
    char what[128];
    snprintf(what, sizeof what, "row_dot_n %s, %d rows of %d, A %u floats off, grid %u high", name, rows,
             n, shift, height);
    int bad = emu_same(what, o0, o1, rows * sizeof *o0);
    delete[] a, delete[] x, delete[] o0, delete[] o1;
    return bad;
}
static int check_norm(int k)
{
    float *a = new float[NL * NL], *r0 = new float[NL * NL], *r1 = new float[NL * NL];
    emu_fill_quarters(a, NL * NL, 41), emu_fill(r0, NL * NL, 42), emu_fill(r1, NL * NL, 42);
    emu_launch({1, 1, 1}, {256, 1, 1}, [&] { norm(NL, a, r0, k); });
    emu_launch_synced({1, 1, 1}, {256, 1, 1}, [&] { norm_variant(NL, a, r1, k); });
    int bad = emu_same("norm block_reduce", r0, r1, NL * NL * sizeof *r0);
    delete[] a, delete[] r0, delete[] r1;
    return bad;
}
int main()
{
    int bad = 0, runs = 0;
    bad |= check_dot("warp_rows 256", {256, 1, 1}, {256, 1, 1}, 1, row_dot_warp_rows_256);
    bad |= check_dot("warp_rows4 256", {256, 1, 1}, {256, 1, 1}, 1, row_dot_warp_rows4_256);
    bad |= check_dot("warp_rows8 256", {256, 1, 1}, {256, 1, 1}, 1, row_dot_warp_rows8_256);
    bad |= check_dot("warp_rows 256 on 128", {256, 1, 1}, {128, 1, 1}, 1, row_dot_warp_rows_256);
    /* y threads repeat the x threads' row (reset first: the same result) */
    bad |= check_dot("warp_rows 32x8", {32, 8, 1}, {32, 8, 1}, 1, row_dot_warp_rows_32x8);
    bad |= check_dot("warp_rows4 32x8", {32, 8, 1}, {32, 8, 1}, 1, row_dot_warp_rows4_32x8);
    bad |= check_dot("warp_rows4 32x8 on 32x4", {32, 8, 1}, {32, 4, 1}, 1, row_dot_warp_rows4_32x8);
    runs += 7;
    const unsigned heights[] = {1, 2, 5, 32, 33};
    for (unsigned h : heights) {
        bad |= check_dot("wide_rows", {256, 1, 1}, {256, 1, 1}, h, row_dot_wide);
        runs++;
    }
    bad |= check_dot("wide_rows on 64", {256, 1, 1}, {64, 1, 1}, 3, row_dot_wide);
    const unsigned heights4[] = {1, 3, 4, 5};
    for (unsigned h : heights4) {
        bad |= check_dot("wide_rows 32x8", {32, 8, 1}, {32, 8, 1}, h, row_dot_wide_32x8);
        runs++;
    }
    bad |= check_dot("wide_rows 32x8 on 32x4", {32, 8, 1}, {32, 4, 1}, 4, row_dot_wide_32x8);
    for (unsigned h : {1u, 5u, 32u}) {
        bad |= check_dot("wide_rows_vec", {256, 1, 1}, {256, 1, 1}, h, row_dot_wide_vec);
        runs++;
    }
    bad |= check_dot("wide_rows_vec on 64", {256, 1, 1}, {64, 1, 1}, 3, row_dot_wide_vec);
    runs++;
    const int lengths[][2] = {{300, 700}, {300, 701}, {40, 5}, {300, 130}, {7, 1}};
    for (auto &l : lengths)
        for (unsigned shift : {0u, 1u})
            for (unsigned h : {1u, 32u}) {
                bad |= check_dot_n(l[0], l[1], shift, h);
                bad |= check_dot_n(l[0], l[1], shift, h, "row_dot_early wide_rows_vec", row_dot_early_wide_vec);
                bad |= check_dot_n(l[0], l[1], shift, h, "row_dot_sum wide_rows_vec", row_dot_sum_wide_vec);
                runs += 3;
            }
    for (auto &l : lengths) {
        bad |= check_dot_n(l[0], l[1], 0, 1, "row_dot_early warp_rows4", row_dot_early_warp4);
        bad |= check_dot_n(l[0], l[1], 0, 1, "row_dot_early stage", row_dot_early_stage);
        bad |= check_dot_n(l[0], l[1], 0, 1, "row_dot_sum warp_rows", row_dot_sum_warp);
        runs += 3;
    }
    bad |= check_two_rows();
    bad |= check_norm(0) | check_norm(1999);
    runs += 5;
    printf("warp_rows, wide_rows, wide_rows_vec, block_reduce: %d emulated runs\n", runs);
    return bad;
}
CPP
} >"$tmp/rows.cpp"
{
    echo '#include "emulate.h"'
    cat "$src/fixtures/vectors.cu"
    variant vectors.cu vec_dot vec_loads --distinct
    variant vectors.cu vec_double vec_loads --distinct
    variant vectors.cu vec_offset vec_loads --distinct
    variant vectors.cu vec_gemm vec_loads --distinct
    variant vectors.cu vec_scale_row vec_loads --distinct
    variant vectors.cu vec_store_only vec_loads --distinct
    cat <<'CPP'
/* 16-byte stores gathered from the step's bodies, rows from an offset */
static int check_stores(int n, int m, int off)
{
    size_t size = (size_t)n * m + off + 8;
    float *A = new float[size], *v = new float[m + off + 8], *B0 = new float[size], *B1 = new float[size];
    double *D0 = new double[size], *D1 = new double[size];
    emu_fill(A, size, 71), emu_fill(v, m + off + 8, 72), emu_fill(B0, size, 73), emu_fill(B1, size, 73);
    emu_fill(D0, size, 74), emu_fill(D1, size, 74);
    emu_dim3 grid = {(unsigned)(n + 15) / 16, 1, 1}, block = {16, 1, 1};
    emu_launch(grid, block, [&] { vec_scale_row(n, m, 1.25f, A + off, v + off, B0 + off); });
    emu_launch(grid, block, [&] { vec_scale_row_variant(n, m, 1.25f, A + off, v + off, B1 + off); });
    emu_launch(grid, block, [&] { vec_store_only(n, m, D0 + off); });
    emu_launch(grid, block, [&] { vec_store_only_variant(n, m, D1 + off); });
    char what[96];
    snprintf(what, sizeof what, "vec_scale_row n %d m %d off %d", n, m, off);
    int bad = emu_same(what, B0, B1, size * sizeof *B0);
    snprintf(what, sizeof what, "vec_store_only n %d m %d off %d", n, m, off);
    bad |= emu_same(what, D0, D1, size * sizeof *D0);
    delete[] A, delete[] v, delete[] B0, delete[] B1, delete[] D0, delete[] D1;
    return bad;
}

/* c = beta c + alpha a b, n x n on 8x4 blocks: register sums of c */
static int check_gemm(int n)
{
    size_t nn = (size_t)n * n;
    float *a = new float[nn], *b = new float[nn], *c0 = new float[nn], *c1 = new float[nn];
    emu_fill(a, nn, 61), emu_fill(b, nn, 62), emu_fill(c0, nn, 63), emu_fill(c1, nn, 63);
    emu_dim3 grid = {(unsigned)(n + 7) / 8, (unsigned)(n + 3) / 4, 1}, block = {8, 4, 1};
    emu_launch(grid, block, [&] { vec_gemm(n, 1.5f, 0.5f, a, b, c0); });
    emu_launch(grid, block, [&] { vec_gemm_variant(n, 1.5f, 0.5f, a, b, c1); });
    char what[64];
    snprintf(what, sizeof what, "vec_gemm n %d", n);
    int bad = emu_same(what, c0, c1, nn * sizeof *c0);
    delete[] a, delete[] b, delete[] c0, delete[] c1;
    return bad;
}

/* rows of m elements from an offset into the allocation: aligned starts,
 * misaligned ones (the original loop runs whole), tails of 0..3 */
static int check_vectors(int n, int m, int off, unsigned threads)
{
    size_t size = (size_t)n * m + off + 8;
    float *A = new float[size], *v = new float[m + off + 8], *o0 = new float[n], *o1 = new float[n];
    double *dA = new double[size], *dB = new double[size], *d0 = new double[n], *d1 = new double[n];
    emu_fill(A, size, 51), emu_fill(v, m + off + 8, 52), emu_fill(dA, size, 53), emu_fill(dB, size, 54);
    emu_dim3 grid = {(unsigned)(n + threads - 1) / threads, 1, 1}, block = {threads, 1, 1};
    char what[96];
    int bad = 0;
    emu_fill(o0, n, 55), emu_fill(o1, n, 55);
    emu_launch(grid, block, [&] { vec_dot(n, m, A + off, v + off, o0); });
    emu_launch(grid, block, [&] { vec_dot_variant(n, m, A + off, v + off, o1); });
    snprintf(what, sizeof what, "vec_dot n %d m %d off %d", n, m, off);
    bad |= emu_same(what, o0, o1, n * sizeof *o0);
    emu_fill(d0, n, 56), emu_fill(d1, n, 56);
    emu_launch(grid, block, [&] { vec_double(n, m, dA + off, dB + off, d0); });
    emu_launch(grid, block, [&] { vec_double_variant(n, m, dA + off, dB + off, d1); });
    snprintf(what, sizeof what, "vec_double n %d m %d off %d", n, m, off);
    bad |= emu_same(what, d0, d1, n * sizeof *d0);
    emu_fill(o0, n, 57), emu_fill(o1, n, 57);
    emu_launch(grid, block, [&] { vec_offset(n, m, off, A, v, o0); });
    emu_launch(grid, block, [&] { vec_offset_variant(n, m, off, A, v, o1); });
    snprintf(what, sizeof what, "vec_offset n %d m %d off %d", n, m, off);
    bad |= emu_same(what, o0, o1, n * sizeof *o0);
    delete[] A, delete[] v, delete[] o0, delete[] o1, delete[] dA, delete[] dB, delete[] d0, delete[] d1;
    return bad;
}

int main()
{
    int bad = 0, runs = 0;
    const int ms[] = {0, 1, 2, 3, 4, 5, 7, 8, 64, 66, 129};
    const int offs[] = {0, 1, 2, 3, 4};
    for (int m : ms)
        for (int off : offs) {
            bad |= check_vectors(37, m, off, 16);
            bad |= check_stores(21, m, off);
            runs += 5;
        }
    const int gemm_sizes[] = {1, 5, 8, 13, 32};
    for (int n : gemm_sizes) {
        bad |= check_gemm(n);
        runs++;
    }
    printf("vec_loads: %d emulated runs\n", runs);
    return bad;
}
CPP
} >"$tmp/vectors.cpp"
{
    echo '#include "emulate.h"'
    cat "$src/fixtures/reshape.cu"
    for combo in block_wide2 block_wide4 block_narrow2; do
        variant reshape.cu stamp $combo --shape 32,8,1 --grid 8,8,1 | sed "s/stamp_variant(/stamp_$combo(/"
        variant reshape.cu smooth $combo --shape 32,8,1 --grid 8,8,1 | sed "s/smooth_variant(/smooth_$combo(/"
    done
    variant reshape.cu axpy block_wide2 --shape 256,1,1 --grid 4096,1,1 | sed "s/axpy_variant(/axpy_block_wide2(/"
    variant reshape.cu axpy block_narrow2 --shape 256,1,1 --grid 8,1,1 | sed "s/axpy_variant(/axpy_block_narrow2(/"
    for f in 4 16; do
        variant reshape.cu axpy grid_stride$f --shape 256,1,1 --grid 32768,1,1 | sed "s/axpy_variant(/axpy_grid_stride$f(/"
        variant reshape.cu clamp_rows grid_stride$f --shape 256,1,1 --grid 32768,1,1 | sed "s/clamp_rows_variant(/clamp_rows_grid_stride$f(/"
        variant reshape.cu shift_scale grid_stride$f --shape 256,1,1 --grid 32768,1,1 | sed "s/shift_scale_variant(/shift_scale_grid_stride$f(/"
        variant reshape.cu stamp grid_stride$f --shape 32,8,1 --grid 1024,64,1 | sed "s/stamp_variant(/stamp_grid_stride$f(/"
    done
    variant reshape.cu axpy grid_sm --shape 256,1,1 --grid 32768,1,1 | sed "s/axpy_variant(/axpy_grid_sm(/"
    variant reshape.cu clamp_rows grid_sm --shape 256,1,1 --grid 32768,1,1 | sed "s/clamp_rows_variant(/clamp_rows_grid_sm(/"
    variant reshape.cu shift_scale grid_sm --shape 256,1,1 --grid 32768,1,1 | sed "s/shift_scale_variant(/shift_scale_grid_sm(/"
    variant reshape.cu stamp grid_sm --shape 32,8,1 --grid 1024,64,1 | sed "s/stamp_variant(/stamp_grid_sm(/"
    cat <<'CPP'
/* the launch as the rule reshapes it: block times xm / xd along x, ym / yd
 * along y, the grid the other way */
static void reshape(emu_dim3 &grid, emu_dim3 &block, unsigned xm, unsigned xd, unsigned ym, unsigned yd)
{
    grid.x = grid.x / xm * xd, grid.y = grid.y / ym * yd;
    block.x = block.x / xd * xm, block.y = block.y / yd * ym;
}
typedef void (*stamp_fn)(unsigned *, int);
typedef void (*smooth_fn)(const float *, float *);
static int check2d(const char *name, stamp_fn st, smooth_fn sm, emu_dim3 grid, emu_dim3 block,
                   unsigned xm, unsigned xd, unsigned ym, unsigned yd)
{
    emu_dim3 g2 = grid, b2 = block;
    reshape(g2, b2, xm, xd, ym, yd);
    int n = (int)std::min(grid.x * block.x, grid.y * block.y) - 3;
    size_t cells = (size_t)grid.x * block.x * grid.y * block.y;
    unsigned *o0 = new unsigned[cells], *o1 = new unsigned[cells];
    memset(o0, 0, cells * sizeof *o0), memset(o1, 0, cells * sizeof *o1);
    emu_launch(grid, block, [&] { stamp(o0, n); });
    emu_launch(g2, b2, [&] { st(o1, n); });
    char what[128];
    snprintf(what, sizeof what, "stamp %s, %ux%u blocks of %ux%u", name, grid.x, grid.y, block.x, block.y);
    int bad = emu_same(what, o0, o1, cells * sizeof *o0);
    size_t m = (size_t)NI * NJ;
    float *a = new float[m], *b0 = new float[m], *b1 = new float[m];
    emu_fill(a, m, 8), emu_fill(b0, m, 9), emu_fill(b1, m, 9);
    emu_launch(grid, block, [&] { smooth(a, b0); });
    emu_launch(g2, b2, [&] { sm(a, b1); });
    snprintf(what, sizeof what, "smooth %s, %ux%u blocks of %ux%u", name, grid.x, grid.y, block.x, block.y);
    bad |= emu_same(what, b0, b1, m * sizeof *b0);
    delete[] o0, delete[] o1, delete[] a, delete[] b0, delete[] b1;
    return bad;
}
static int check1d(const char *name, void (*fn)(int, float, const float *, float *), unsigned blocks,
                   unsigned threads, unsigned xm, unsigned xd)
{
    int n = (int)(blocks * threads) - 37;
    float *x = new float[n], *y0 = new float[n], *y1 = new float[n];
    emu_fill(x, n, 10), emu_fill(y0, n, 11), emu_fill(y1, n, 11);
    emu_dim3 grid = {blocks, 1, 1}, block = {threads, 1, 1}, g2 = grid, b2 = block;
    reshape(g2, b2, xm, xd, 1, 1);
    emu_launch(grid, block, [&] { axpy(n, 1.5f, x, y0); });
    emu_launch(g2, b2, [&] { fn(n, 1.5f, x, y1); });
    char what[96];
    snprintf(what, sizeof what, "axpy %s, %u blocks of %u", name, blocks, threads);
    int bad = emu_same(what, y0, y1, n * sizeof *y0);
    delete[] x, delete[] y0, delete[] y1;
    return bad;
}
int main()
{
    int bad = 0, runs = 0;
    /* grids whose x is a multiple of 4 and y of 2, blocks whose y is a multiple of 4 and x of 16 */
    const emu_dim3 grids[] = {{4, 2, 1}, {8, 26, 1}, {12, 4, 1}, {4, 40, 1}};
    const emu_dim3 blocks[] = {{32, 8, 1}, {16, 16, 1}, {64, 4, 1}, {32, 4, 2}};
    for (const emu_dim3 &g : grids)
        for (const emu_dim3 &b : blocks) {
            bad |= check2d("block_wide2", stamp_block_wide2, smooth_block_wide2, g, b, 2, 1, 1, 2);
            bad |= check2d("block_wide4", stamp_block_wide4, smooth_block_wide4, g, b, 4, 1, 1, 4);
            bad |= check2d("block_narrow2", stamp_block_narrow2, smooth_block_narrow2, g, b, 1, 2, 2, 1);
            runs += 6;
        }
    const unsigned counts[] = {2, 8, 30};
    for (unsigned c : counts) {
        bad |= check1d("block_wide2", axpy_block_wide2, c, 256, 2, 1);
        bad |= check1d("block_narrow2", axpy_block_narrow2, c, 256, 1, 2);
        bad |= check1d("block_narrow2", axpy_block_narrow2, c, 64, 1, 2);
        runs += 3;
    }
    /* grid-stride loops: grids of F, 2F and 5F blocks (and 2-D ones) */
    struct { unsigned f; void (*axpy_fn)(int, float, const float *, float *); void (*clamp_fn)(int, int, float *, float);
             void (*shift_fn)(float *, int); stamp_fn stamp_f; } strides[] = {
        {4, axpy_grid_stride4, clamp_rows_grid_stride4, shift_scale_grid_stride4, stamp_grid_stride4},
        {16, axpy_grid_stride16, clamp_rows_grid_stride16, shift_scale_grid_stride16, stamp_grid_stride16}};
    for (auto &s : strides)
        for (unsigned mult : {1u, 2u, 5u}) {
            unsigned blocks = s.f * mult, threads = 64;
            char what[96];
            emu_dim3 grid = {blocks, 1, 1}, block = {threads, 1, 1}, g2 = {blocks / s.f, 1, 1};
            int n = (int)(blocks * threads) - 21, m = 7;
            float *x = new float[n], *y0 = new float[n], *y1 = new float[n];
            float *r0 = new float[(size_t)n * m], *r1 = new float[(size_t)n * m];
            emu_fill(x, n, 12), emu_fill(y0, n, 13), emu_fill(y1, n, 13);
            emu_fill(r0, (size_t)n * m, 14), emu_fill(r1, (size_t)n * m, 14);
            emu_launch(grid, block, [&] { axpy(n, 0.5f, x, y0); });
            emu_launch(g2, block, [&] { s.axpy_fn(n, 0.5f, x, y1); });
            snprintf(what, sizeof what, "axpy grid_stride%u, %u blocks", s.f, blocks);
            bad |= emu_same(what, y0, y1, n * sizeof *y0);
            emu_launch(grid, block, [&] { clamp_rows(n, m, r0, 1.2f); });
            emu_launch(g2, block, [&] { s.clamp_fn(n, m, r1, 1.2f); });
            snprintf(what, sizeof what, "clamp_rows grid_stride%u, %u blocks", s.f, blocks);
            bad |= emu_same(what, r0, r1, (size_t)n * m * sizeof *r0);
            emu_launch(grid, block, [&] { shift_scale(y0, n); });
            emu_launch(g2, block, [&] { s.shift_fn(y1, n); });
            snprintf(what, sizeof what, "shift_scale grid_stride%u, %u blocks", s.f, blocks);
            bad |= emu_same(what, y0, y1, n * sizeof *y0);
            emu_dim3 sg = {blocks, 3, 1}, sb = {16, 4, 1}, sg2 = {blocks / s.f, 3, 1};
            size_t cells = (size_t)sg.x * sb.x * sg.y * sb.y;
            unsigned *o0 = new unsigned[cells](), *o1 = new unsigned[cells]();
            int sn = (int)std::min(sg.x * sb.x, sg.y * sb.y) - 1;
            emu_launch(sg, sb, [&] { stamp(o0, sn); });
            emu_launch(sg2, sb, [&] { s.stamp_f(o1, sn); });
            snprintf(what, sizeof what, "stamp grid_stride%u, %ux3 blocks", s.f, blocks);
            bad |= emu_same(what, o0, o1, cells * sizeof *o0);
            delete[] x, delete[] y0, delete[] y1, delete[] r0, delete[] r1, delete[] o0, delete[] o1;
            runs += 4;
        }
    /* grids sized from the SM count ("grid.x sm"): any width from 1 to
     * more than the original's, the original's width passed last */
    for (unsigned blocks : {1u, 7u, 24u})
        for (unsigned width : {1u, 3u, 5u, blocks, blocks + 2}) {
            if (width > blocks + 2 || width < 1)
                continue;
            char what[96];
            emu_dim3 grid = {blocks, 1, 1}, block = {64, 1, 1}, g2 = {width, 1, 1};
            int n = (int)(blocks * 64) - 21, m = 5;
            if (n < 1)
                n = 1;
            float *x = new float[n], *y0 = new float[n], *y1 = new float[n];
            float *r0 = new float[(size_t)n * m], *r1 = new float[(size_t)n * m];
            emu_fill(x, n, 15), emu_fill(y0, n, 16), emu_fill(y1, n, 16);
            emu_fill(r0, (size_t)n * m, 17), emu_fill(r1, (size_t)n * m, 17);
            emu_launch(grid, block, [&] { axpy(n, 0.25f, x, y0); });
            emu_launch(g2, block, [&] { axpy_grid_sm(n, 0.25f, x, y1, blocks); });
            snprintf(what, sizeof what, "axpy grid_sm, %u blocks on %u", blocks, width);
            bad |= emu_same(what, y0, y1, n * sizeof *y0);
            emu_launch(grid, block, [&] { clamp_rows(n, m, r0, 1.1f); });
            emu_launch(g2, block, [&] { clamp_rows_grid_sm(n, m, r1, 1.1f, blocks); });
            snprintf(what, sizeof what, "clamp_rows grid_sm, %u blocks on %u", blocks, width);
            bad |= emu_same(what, r0, r1, (size_t)n * m * sizeof *r0);
            emu_launch(grid, block, [&] { shift_scale(y0, n); });
            emu_launch(g2, block, [&] { shift_scale_grid_sm(y1, n, blocks); });
            snprintf(what, sizeof what, "shift_scale grid_sm, %u blocks on %u", blocks, width);
            bad |= emu_same(what, y0, y1, n * sizeof *y0);
            emu_dim3 sg = {blocks, 3, 1}, sb = {16, 4, 1}, sg2 = {width, 3, 1};
            size_t cells = (size_t)sg.x * sb.x * sg.y * sb.y;
            unsigned *o0 = new unsigned[cells](), *o1 = new unsigned[cells]();
            int sn = (int)std::min(sg.x * sb.x, sg.y * sb.y) - 1;
            emu_launch(sg, sb, [&] { stamp(o0, sn); });
            emu_launch(sg2, sb, [&] { stamp_grid_sm(o1, sn, blocks); });
            snprintf(what, sizeof what, "stamp grid_sm, %ux3 blocks on %ux3", blocks, width);
            bad |= emu_same(what, o0, o1, cells * sizeof *o0);
            delete[] x, delete[] y0, delete[] y1, delete[] r0, delete[] r1, delete[] o0, delete[] o1;
            runs += 4;
        }
    printf("block reshapes, grid-stride loops: %d emulated runs\n", runs);
    return bad;
}
CPP
} >"$tmp/reshape.cpp"
{
    echo '#include "emulate.h"'
    cat "$src/fixtures/stencil.cu"
    variant stencil.cu blur stencil_tile --distinct --shape 32,8,1 --grid 3,5,1 | sed "s/blur_variant(/blur_tile32x8(/"
    variant stencil.cu blur stencil_tile --distinct --shape 256,1,1 --grid 1,37,1 | sed "s/blur_variant(/blur_tile256(/"
    variant stencil.cu jacobi stencil_tile --distinct --shape 16,16,1 --grid 5,3,1 | sed "s/jacobi_variant(/jacobi_tile16x16(/"
    variant stencil.cu curl stencil_tile --distinct --shape 32,8,1 --grid 3,5,1 | sed "s/curl_variant(/curl_tile32x8(/"
    cat <<'CPP'
/* the original launched plainly, the tiled variant with barriers, on the
 * block it was made for and on others (no tiling then), grids that cover
 * the arrays and more */
static int check_blur(void (*fn)(int, int, const float *, float *), const char *name, int h, int w,
                      emu_dim3 block)
{
    size_t n = (size_t)h * w;
    float *a = new float[n], *b0 = new float[n], *b1 = new float[n];
    emu_fill(a, n, 21), emu_fill(b0, n, 22), emu_fill(b1, n, 22);
    emu_dim3 grid = {(w + block.x - 1) / block.x + 1, (h + block.y - 1) / block.y, 1};
    emu_launch(grid, block, [&] { blur(h, w, a, b0); });
    emu_launch_synced(grid, block, [&] { fn(h, w, a, b1); });
    char what[96];
    snprintf(what, sizeof what, "blur %s, %dx%d on %ux%u blocks", name, h, w, block.x, block.y);
    int bad = emu_same(what, b0, b1, n * sizeof *b0);
    delete[] a, delete[] b0, delete[] b1;
    return bad;
}
static int check_jacobi(emu_dim3 block)
{
    size_t n = (size_t)NROW * NCOL + 2;
    double *src = new double[n], *d0 = new double[n], *d1 = new double[n];
    emu_fill(src, n, 23), emu_fill(d0, n, 24), emu_fill(d1, n, 24);
    emu_dim3 grid = {(NCOL + block.x - 1) / block.x, (NROW + block.y - 1) / block.y + 1, 1};
    emu_launch(grid, block, [&] { jacobi(d0, src); });
    emu_launch_synced(grid, block, [&] { jacobi_tile16x16(d1, src); });
    char what[96];
    snprintf(what, sizeof what, "jacobi stencil_tile on %ux%u blocks", block.x, block.y);
    int bad = emu_same(what, d0, d1, n * sizeof *d0);
    delete[] src, delete[] d0, delete[] d1;
    return bad;
}
static int check_curl(int nx, int ny, emu_dim3 block)
{
    size_t n = (size_t)nx * ny;
    float *ex = new float[n], *ey = new float[n], *h0 = new float[n], *h1 = new float[n];
    emu_fill(ex, n, 25), emu_fill(ey, n, 26), emu_fill(h0, n, 27), emu_fill(h1, n, 27);
    emu_dim3 grid = {(ny + block.x - 1) / block.x, (nx + block.y - 1) / block.y, 1};
    emu_launch(grid, block, [&] { curl(nx, ny, ex, ey, h0); });
    emu_launch_synced(grid, block, [&] { curl_tile32x8(nx, ny, ex, ey, h1); });
    char what[96];
    snprintf(what, sizeof what, "curl stencil_tile, %dx%d on %ux%u blocks", nx, ny, block.x, block.y);
    int bad = emu_same(what, h0, h1, n * sizeof *h0);
    delete[] ex, delete[] ey, delete[] h0, delete[] h1;
    return bad;
}
int main()
{
    int bad = 0, runs = 0;
    const int sizes[][2] = {{37, 70}, {8, 32}, {17, 95}, {3, 3}};
    for (auto &sz : sizes) {
        bad |= check_blur(blur_tile32x8, "stencil_tile 32x8", sz[0], sz[1], {32, 8, 1});
        bad |= check_blur(blur_tile32x8, "stencil_tile 32x8", sz[0], sz[1], {16, 4, 1});
        bad |= check_blur(blur_tile256, "stencil_tile 256", sz[0], sz[1], {256, 1, 1});
        bad |= check_blur(blur_tile256, "stencil_tile 256", sz[0], sz[1], {32, 8, 1});
        bad |= check_curl(sz[0], sz[1], {32, 8, 1});
        bad |= check_curl(sz[0], sz[1], {8, 8, 1});
        runs += 6;
    }
    for (emu_dim3 b : {emu_dim3{16, 16, 1}, emu_dim3{32, 4, 1}, emu_dim3{16, 16, 2}}) {
        bad |= check_jacobi(b);
        runs++;
    }
    printf("stencil_tile: %d emulated runs\n", runs);
    return bad;
}
CPP
} >"$tmp/stencil.cpp"
fail=0
for t in spread interchange split regblock columns rows vectors reshape stencil; do
    emu_run "$t" || fail=1
done
exit $fail
