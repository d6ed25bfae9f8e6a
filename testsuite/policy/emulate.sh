#!/bin/sh
# emulate.sh POL_TOOL SRC_DIR: the variants of spread, interchange,
# split_loop and regblock compute what the original kernel computes, element
# for element, on grids of several shapes (block sizes that divide and do
# not, grid heights 1..9 for spread's copy, up to 256 for split_loop's,
# matrices that regblock's tiles divide and do not), run on the CPU through
# emulate.h with g++ (regblock's barriers and shared tiles through
# emu_launch_synced's coroutines).
set -u
tool=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cxx=${CXX:-g++}
command -v "$cxx" >/dev/null 2>&1 || { echo "FAIL: no C++ compiler ($cxx)"; exit 1; }
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
    for r in 2x2 4x2 4x4; do
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
        bad |= check_gemm("2x2", s[0], s[1], s[2], {32, 8, 1}, gemm_like_2x2);
        bad |= check_gemm("4x2", s[0], s[1], s[2], {32, 8, 1}, gemm_like_4x2);
        bad |= check_gemm("4x4", s[0], s[1], s[2], {32, 8, 1}, gemm_like_4x4);
        bad |= check_gemm("4x4", s[0], s[1], s[2], {16, 16, 1}, gemm_like_4x4);
        bad |= check_gram("2x2", s[0], s[2], gram_rows_2x2);
        bad |= check_gram("4x2", s[0], s[2], gram_rows_4x2);
        bad |= check_gram("4x4", s[0], s[2], gram_rows_4x4);
        bad |= check_two_out("2x2", s[1], two_out_2x2);
        bad |= check_two_out("4x2", s[1], two_out_4x2);
        bad |= check_two_out("4x4", s[1], two_out_4x4);
        runs += 10;
    }
    printf("regblock: %d emulated runs\n", runs);
    return bad;
}
CPP
} >"$tmp/regblock.cpp"
fail=0
for t in spread interchange split regblock; do
    if ! "$cxx" -std=c++17 -O2 -w -I"$src" -o "$tmp/$t" "$tmp/$t.cpp" 2>"$tmp/$t.err"; then
        echo "FAIL: $t: the emulation does not compile:"; head -20 "$tmp/$t.err"; fail=1; continue
    fi
    "$tmp/$t" || fail=1
done
exit $fail
