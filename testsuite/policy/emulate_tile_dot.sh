#!/bin/sh
# emulate_tile_dot.sh POL_TOOL SRC_DIR: the tile_dot32, tile_dot64, tile_dot128,
# tile_dot32_split4, tile_dot64_split4, tile_dot64_ahead2 and
# tile_dot32_split4_ahead2 variants of fixtures/dots.cu (gemm, 2mm's first kernel, a lower-triangle
# syrk, a product of transposed operands over [1, nk), syr2k's two products
# a step, gemm behind an early return checked against gemm, the textbook
# product summing in a float) give the original's
# bits, element for element, on matrices the tiles and float4 loads divide
# and do not, grids that cover the matrices and more, and on a block shape
# the variant was not made for (the original's path then); run on the CPU
# through emulate.h (barriers and shared tiles by emu_launch_synced).  The
# split variants add a sum's parts in another order: they are checked on
# multiples of 1/4 (emu_fill_quarters), where every order gives the same
# bits, so that a step summed twice or not at all still shows.
set -u
tool=$1 src=$2
. "$(dirname "$0")/emulate_lib.sh"
variant() { # KERNEL COMBO: the variant renamed KERNEL_COMBO
    "$tool" "$src/fixtures/dots.cu" "$1" "$2" --distinct --shape 32,8,1 >"$tmp/v.cu" || exit 1
    if grep -q '^refused: ' "$tmp/v.cu"; then echo "FAIL: $1 $2: $(cat "$tmp/v.cu")"; exit 1; fi
    sed "s/void $1(/void ${1}_$2(/" "$tmp/v.cu"
}
{
    echo '#include "emulate.h"'
    cat "$src/fixtures/dots.cu"
    for t in tile_dot32 tile_dot64 tile_dot128 tile_dot32_split4 tile_dot64_split4 tile_dot64_ahead2 \
        tile_dot32_split4_ahead2; do
        for kernel in gemm mm2 syrk_lower gemm_tt syr2k gemm_early matmul_sum matmul_scaled; do variant $kernel $t; done
    done
    cat <<'CPP'
struct sizes {
    int ni, nj, nk;
};
/* the original launched plainly on 32x8 blocks, the variant with barriers
 * on BLOCK, both on grids EXTRA blocks wider and taller than the matrix */
static bool quarters; /* the variant reorders the sum: inputs whose sums are exact */
template <class K0, class K1>
static int check(const char *name, sizes s, size_t na, size_t nb, size_t nc, emu_dim3 block, unsigned extra,
                 K0 original, K1 variant)
{
    float *a = new float[na], *b = new float[nb], *c0 = new float[nc], *c1 = new float[nc];
    if (quarters)
        emu_fill_quarters(a, na, 31), emu_fill_quarters(b, nb, 32), emu_fill_quarters(c0, nc, 33),
            emu_fill_quarters(c1, nc, 33);
    else
        emu_fill(a, na, 31), emu_fill(b, nb, 32), emu_fill(c0, nc, 33), emu_fill(c1, nc, 33);
    emu_dim3 grid = {(s.nj + 31) / 32u + extra, (s.ni + 7) / 8u + extra, 1};
    emu_launch(grid, {32, 8, 1}, [&] { original(a, b, c0); });
    emu_dim3 g1 = {(s.nj + block.x - 1) / block.x + extra, (s.ni + block.y - 1) / block.y + extra, 1};
    emu_launch_synced(g1, block, [&] { variant(a, b, c1); });
    char what[160];
    snprintf(what, sizeof what, "%s, %dx%dx%d on %ux%u blocks, grid %ux%u", name, s.ni, s.nj, s.nk, block.x,
             block.y, g1.x, g1.y);
    int bad = emu_same(what, c0, c1, nc * sizeof *c0);
    delete[] a, delete[] b, delete[] c0, delete[] c1;
    return bad;
}
typedef void gemm_fn(int, int, int, float, float, float *, float *, float *);
typedef void mm2_fn(int, int, int, float *, float *, float *);
typedef void syrk_fn(int, int, float, float, float *, float *);
typedef void tt_fn(int, int, int, float *, float *, float *);
typedef void syr2k_fn(int, int, float, float *, float *, float *);
typedef void sum_fn(int, int, int, const float *, const float *, float *);
typedef void scaled_fn(int, int, int, float, float, const float *, const float *, float *);
struct variants {
    const char *name;
    gemm_fn *g;
    mm2_fn *m;
    syrk_fn *s;
    tt_fn *t;
    syr2k_fn *s2;
    gemm_fn *ge; /* gemm_early's tiles, against gemm */
    sum_fn *ms;
    scaled_fn *sc;
};
int main()
{
    const variants vs[] = {{"tile_dot32", gemm_tile_dot32, mm2_tile_dot32, syrk_lower_tile_dot32, gemm_tt_tile_dot32,
                            syr2k_tile_dot32, gemm_early_tile_dot32, matmul_sum_tile_dot32, matmul_scaled_tile_dot32},
                           {"tile_dot64", gemm_tile_dot64, mm2_tile_dot64, syrk_lower_tile_dot64, gemm_tt_tile_dot64,
                            syr2k_tile_dot64, gemm_early_tile_dot64, matmul_sum_tile_dot64, matmul_scaled_tile_dot64},
                           {"tile_dot128", gemm_tile_dot128, mm2_tile_dot128, syrk_lower_tile_dot128,
                            gemm_tt_tile_dot128, syr2k_tile_dot128, gemm_early_tile_dot128, matmul_sum_tile_dot128,
                            matmul_scaled_tile_dot128},
                           {"tile_dot32_split4", gemm_tile_dot32_split4, mm2_tile_dot32_split4,
                            syrk_lower_tile_dot32_split4, gemm_tt_tile_dot32_split4, syr2k_tile_dot32_split4,
                            gemm_early_tile_dot32_split4, matmul_sum_tile_dot32_split4, matmul_scaled_tile_dot32_split4},
                           {"tile_dot64_split4", gemm_tile_dot64_split4, mm2_tile_dot64_split4,
                            syrk_lower_tile_dot64_split4, gemm_tt_tile_dot64_split4, syr2k_tile_dot64_split4,
                            gemm_early_tile_dot64_split4, matmul_sum_tile_dot64_split4, matmul_scaled_tile_dot64_split4},
                           {"tile_dot64_ahead2", gemm_tile_dot64_ahead2, mm2_tile_dot64_ahead2,
                            syrk_lower_tile_dot64_ahead2, gemm_tt_tile_dot64_ahead2, syr2k_tile_dot64_ahead2,
                            gemm_early_tile_dot64_ahead2, matmul_sum_tile_dot64_ahead2, matmul_scaled_tile_dot64_ahead2},
                           {"tile_dot32_split4_ahead2", gemm_tile_dot32_split4_ahead2, mm2_tile_dot32_split4_ahead2,
                            syrk_lower_tile_dot32_split4_ahead2, gemm_tt_tile_dot32_split4_ahead2,
                            syr2k_tile_dot32_split4_ahead2, gemm_early_tile_dot32_split4_ahead2,
                            matmul_sum_tile_dot32_split4_ahead2, matmul_scaled_tile_dot32_split4_ahead2}};
    /* divided by tiles and float4s; neither; smaller than a tile; odd
     * strides; more stages than the loads run ahead (4 of 32, 7 of 16) */
    const sizes ss[] = {{128, 128, 32}, {136, 72, 20}, {70, 45, 37}, {5, 3, 2}, {130, 66, 9}, {40, 36, 101}};
    const emu_dim3 blocks[] = {{32, 8, 1}, {16, 16, 1}};
    int bad = 0, runs = 0;
    for (const variants &v : vs) {
        quarters = strstr(v.name, "_split") != nullptr;
        for (const sizes &s : ss)
            for (const emu_dim3 &bl : blocks)
                for (unsigned extra : {0u, 2u}) {
                    char name[64];
                    snprintf(name, sizeof name, "gemm %s", v.name);
                    bad |= check(name, s, (size_t)s.ni * s.nk, (size_t)s.nk * s.nj, (size_t)s.ni * s.nj, bl, extra,
                                 [&](float *a, float *b, float *c) { gemm(s.ni, s.nj, s.nk, 1.5f, 0.75f, a, b, c); },
                                 [&](float *a, float *b, float *c) { v.g(s.ni, s.nj, s.nk, 1.5f, 0.75f, a, b, c); });
                    snprintf(name, sizeof name, "mm2 %s", v.name);
                    bad |= check(name, s, (size_t)s.ni * s.nk, (size_t)s.nk * s.nj, (size_t)s.ni * s.nj, bl, extra,
                                 [&](float *a, float *b, float *c) { mm2(s.ni, s.nj, s.nk, c, a, b); },
                                 [&](float *a, float *b, float *c) { v.m(s.ni, s.nj, s.nk, c, a, b); });
                    /* syrk: n x n from n x nk rows; the grid as wide as tall */
                    sizes sq = {s.ni, s.ni, s.nk};
                    snprintf(name, sizeof name, "syrk_lower %s", v.name);
                    bad |= check(name, sq, (size_t)s.ni * s.nk, 1, (size_t)s.ni * s.ni, bl, extra,
                                 [&](float *a, float *, float *c) { syrk_lower(sq.ni, sq.nk, 1.5f, 0.75f, a, c); },
                                 [&](float *a, float *, float *c) { v.s(sq.ni, sq.nk, 1.5f, 0.75f, a, c); });
                    snprintf(name, sizeof name, "gemm_tt %s", v.name);
                    bad |= check(name, s, (size_t)s.nk * s.ni, (size_t)s.nj * s.nk, (size_t)s.ni * s.nj, bl, extra,
                                 [&](float *a, float *b, float *c) { gemm_tt(s.ni, s.nj, s.nk, a, b, c); },
                                 [&](float *a, float *b, float *c) { v.t(s.ni, s.nj, s.nk, a, b, c); });
                    snprintf(name, sizeof name, "syr2k %s", v.name);
                    bad |= check(name, sq, (size_t)s.ni * s.nk, (size_t)s.ni * s.nk, (size_t)s.ni * s.ni, bl, extra,
                                 [&](float *a, float *b, float *c) { syr2k(sq.ni, sq.nk, 1.5f, a, b, c); },
                                 [&](float *a, float *b, float *c) { v.s2(sq.ni, sq.nk, 1.5f, a, b, c); });
                    snprintf(name, sizeof name, "gemm_early %s", v.name);
                    bad |= check(name, s, (size_t)s.ni * s.nk, (size_t)s.nk * s.nj, (size_t)s.ni * s.nj, bl, extra,
                                 [&](float *a, float *b, float *c) { gemm(s.ni, s.nj, s.nk, 1.5f, 0.75f, a, b, c); },
                                 [&](float *a, float *b, float *c) { v.ge(s.ni, s.nj, s.nk, 1.5f, 0.75f, a, b, c); });
                    snprintf(name, sizeof name, "matmul_sum %s", v.name);
                    bad |= check(name, s, (size_t)s.ni * s.nk, (size_t)s.nk * s.nj, (size_t)s.ni * s.nj, bl, extra,
                                 [&](float *a, float *b, float *c) { matmul_sum(s.ni, s.nj, s.nk, a, b, c); },
                                 [&](float *a, float *b, float *c) { v.ms(s.ni, s.nj, s.nk, a, b, c); });
                    snprintf(name, sizeof name, "matmul_scaled %s", v.name);
                    bad |= check(name, s, (size_t)s.ni * s.nk, (size_t)s.nk * s.nj, (size_t)s.ni * s.nj, bl, extra,
                                 [&](float *a, float *b, float *c) { matmul_scaled(s.ni, s.nj, s.nk, 1.5f, 0.75f, a, b, c); },
                                 [&](float *a, float *b, float *c) { v.sc(s.ni, s.nj, s.nk, 1.5f, 0.75f, a, b, c); });
                    runs += 8;
                }
    }
    printf("tile_dot: %d emulated runs\n", runs);
    return bad;
}
CPP
} >"$tmp/tile_dot.cpp"
emu_run tile_dot
