#!/bin/sh
# emulate_tile_pairs.sh POL_TOOL SRC_DIR: the tile_pairs64, tile_pairs64_split4 and tile_pairs64_ahead2 variants of
# fixtures/pairs.cu (covariance's triangle and mirror, correlation's
# diagonal and shifted loop, a sum in a variable with a scale and two
# column arrays) give the original's bits, element for element, on sizes
# the tiles and float4 loads divide and do not, on the variant's taller
# grid (64 slices) with extra blocks, and on a block shape the variant was
# not made for (split_loop's path then); run on the CPU through emulate.h.
# The split variant adds a sum's parts in another order: it is checked on
# multiples of 1/4 (emu_fill_quarters), where every order gives the same
# bits.
set -u
tool=$1 src=$2
. "$(dirname "$0")/emulate_lib.sh"
variant() { # KERNEL COMBO SUFFIX: the variant renamed KERNEL_SUFFIX
    "$tool" "$src/fixtures/pairs.cu" "$1" "$2" --distinct --shape 256,1,1 --flat-grid >"$tmp/v.cu" || exit 1
    if grep -q '^refused: ' "$tmp/v.cu"; then echo "FAIL: $1: $(cat "$tmp/v.cu")"; exit 1; fi
    grep -q '^/\* cl1cc-launch: grid.y x64 \*/' "$tmp/v.cu" || { echo "FAIL: $1: no taller grid"; exit 1; }
    sed "s/void $1(/void ${1}_$3(/" "$tmp/v.cu"
}
{
    echo '#include "emulate.h"'
    cat "$src/fixtures/pairs.cu"
    for kernel in covar corr cross; do variant $kernel tile_pairs64 tiled; variant $kernel tile_pairs64_split4 split; variant $kernel tile_pairs64_ahead2 ahead; done
    cat <<'CPP'
typedef void pairs_fn(int, int, float *, float *, float *);
/* the original on 256-thread blocks, one slice; the variant on BLOCK with
 * 64 slices; both EXTRA blocks wider than the rows need */
static int check(const char *name, int m, int n, unsigned block, unsigned extra, pairs_fn *original,
                 pairs_fn *variant, bool quarters)
{
    size_t nd = (size_t)n * m, ns = (size_t)m * m;
    float *x = new float[nd], *y = new float[nd], *s0 = new float[ns], *s1 = new float[ns];
    if (quarters)
        emu_fill_quarters(x, nd, 41), emu_fill_quarters(y, nd, 42), emu_fill_quarters(s0, ns, 43),
            emu_fill_quarters(s1, ns, 43);
    else
        emu_fill(x, nd, 41), emu_fill(y, nd, 42), emu_fill(s0, ns, 43), emu_fill(s1, ns, 43);
    emu_launch({(m + 255) / 256u + extra, 1, 1}, {256, 1, 1}, [&] { original(m, n, s0, x, y); });
    emu_dim3 g1 = {(m + block - 1) / block + extra, 64, 1};
    emu_launch_synced(g1, {block, 1, 1}, [&] { variant(m, n, s1, x, y); });
    char what[160];
    snprintf(what, sizeof what, "%s, m %d n %d on %u-thread blocks, grid %ux64", name, m, n, block, g1.x);
    int bad = emu_same(what, s0, s1, ns * sizeof *s0);
    delete[] x, delete[] y, delete[] s0, delete[] s1;
    return bad;
}
static void covar_o(int m, int n, float *s, float *x, float *) { covar(m, n, s, x); }
static void covar_v(int m, int n, float *s, float *x, float *) { covar_tiled(m, n, s, x); }
static void corr_o(int m, int n, float *s, float *x, float *) { corr(m, n, s, x); }
static void corr_v(int m, int n, float *s, float *x, float *) { corr_tiled(m, n, s, x); }
static void cross_o(int m, int n, float *s, float *x, float *y) { cross(m, n, 1.5f, s, x, y); }
static void cross_v(int m, int n, float *s, float *x, float *y) { cross_tiled(m, n, 1.5f, s, x, y); }
static void covar_s(int m, int n, float *s, float *x, float *) { covar_split(m, n, s, x); }
static void corr_s(int m, int n, float *s, float *x, float *) { corr_split(m, n, s, x); }
static void cross_s(int m, int n, float *s, float *x, float *y) { cross_split(m, n, 1.5f, s, x, y); }
static void covar_a(int m, int n, float *s, float *x, float *) { covar_ahead(m, n, s, x); }
static void corr_a(int m, int n, float *s, float *x, float *) { corr_ahead(m, n, s, x); }
static void cross_a(int m, int n, float *s, float *x, float *y) { cross_ahead(m, n, 1.5f, s, x, y); }
int main()
{
    struct {
        const char *name;
        pairs_fn *original, *variant;
        bool quarters;
    } ks[] = {{"covar", covar_o, covar_v, false},        {"corr", corr_o, corr_v, false},
              {"cross", cross_o, cross_v, false},        {"covar split4", covar_o, covar_s, true},
              {"corr split4", corr_o, corr_s, true},     {"cross split4", cross_o, cross_s, true},
              {"covar ahead2", covar_o, covar_a, false},   {"corr ahead2", corr_o, corr_a, false},
              {"cross ahead2", cross_o, cross_a, false}};
    /* divided by tiles and float4s; neither; smaller than a tile; several
     * row tiles with a stride float4s do not divide; a sum of 7 stages
     * (more than the loads run ahead) */
    const int sizes[][2] = {{128, 32}, {96, 40}, {70, 37}, {5, 3}, {130, 9}, {40, 101}};
    int bad = 0, runs = 0;
    for (auto &k : ks)
        for (auto &s : sizes)
            for (unsigned block : {256u, 128u})
                for (unsigned extra : {0u, 1u}) {
                    bad |= check(k.name, s[0], s[1], block, extra, k.original, k.variant, k.quarters);
                    runs++;
                }
    printf("tile_pairs: %d emulated runs\n", runs);
    return bad;
}
CPP
} >"$tmp/tile_pairs.cpp"
emu_run tile_pairs
