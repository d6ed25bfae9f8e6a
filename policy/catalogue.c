/*
 * catalogue.c: the built-in transforms, one table: each entry's name,
 * family, what it does to the launch and to the loop (the flags that decide
 * what it combines with) and the function that computes its edits; and
 * combinations of them ("regacc+restrict+unroll4"): the union of their
 * edits on the original.  Adding a transform is one row here.
 */
#include <string.h>

#include "internal.h"

/* the transforms' functions under one signature: x and y are the row's
 * factors, for the transforms that take them */
#define PLAIN(fn)                                                                                  \
    static int run_##fn(const tu_model *m, const kernel *k, const pol_facts *f, int x, int y,     \
                        arena *a, pol_edit_vec *out, const char **why)                            \
    {                                                                                              \
        (void)x, (void)y;                                                                          \
        return pol_transform_##fn(m, k, f, a, out, why);                                           \
    }
#define ONE_FACTOR(fn)                                                                             \
    static int run_##fn(const tu_model *m, const kernel *k, const pol_facts *f, int x, int y,     \
                        arena *a, pol_edit_vec *out, const char **why)                            \
    {                                                                                              \
        (void)y;                                                                                   \
        return pol_transform_##fn(m, k, f, x, a, out, why);                                        \
    }

PLAIN(regacc)
PLAIN(restrict)
PLAIN(ldg)
PLAIN(fast_math)
PLAIN(stage)
PLAIN(block_reduce)
PLAIN(atomic_warp)
PLAIN(interchange)
PLAIN(spread)
PLAIN(vec_loads)
PLAIN(grid_sm)
PLAIN(stencil_tile)
PLAIN(sweep_warp)
ONE_FACTOR(warp_rows)
ONE_FACTOR(sweep_lanes)
ONE_FACTOR(split_loop)
ONE_FACTOR(col_split)
ONE_FACTOR(reshape)
ONE_FACTOR(grid_stride)
ONE_FACTOR(wide_rows)
ONE_FACTOR(launch_bounds)

/* sweep on spread's grid: a thread's walk issues T steps' loads at once,
 * and its warp has an SM of its own (spread), since the few threads of such
 * kernels (adi: 1024) otherwise share a few SMs' load units; y = 1 */
static int run_sweep(const tu_model *m, const kernel *k, const pol_facts *f, int x, int y, arena *a,
                     pol_edit_vec *out, const char **why)
{
    if (y && pol_transform_spread(m, k, f, a, out, why))
        return 1;
    return pol_transform_sweep(m, k, f, x, a, out, why);
}

/* sweep_tile on spread's grid, which it needs: each block's live threads
 * one warp; y = 1: the next tile's loads in flight during a tile's steps */
static int run_sweep_tile(const tu_model *m, const kernel *k, const pol_facts *f, int x, int y,
                          arena *a, pol_edit_vec *out, const char **why)
{
    if (pol_transform_spread(m, k, f, a, out, why))
        return 1;
    return pol_transform_sweep_tile(m, k, f, x, y, a, out, why);
}

static int run_unroll(const tu_model *m, const kernel *k, const pol_facts *f, int x, int y,
                      arena *a, pol_edit_vec *out, const char **why)
{
    (void)f, (void)y;
    return pol_transform_unroll(m, k, x, a, out, why);
}

/* the tiles (tile_dot, tile_pairs): x the tile or grid factor, y the
 * split, `ahead` how many stages ahead the loads go */
#define TILES(fn, ahead)                                                                           \
    static int run_##fn##_ahead##ahead(const tu_model *m, const kernel *k, const pol_facts *f,     \
                                       int x, int y, arena *a, pol_edit_vec *out, const char **why) \
    {                                                                                              \
        return pol_transform_##fn(m, k, f, x, y, ahead, a, out, why);                              \
    }

TILES(tile_dot, 1)
TILES(tile_dot, 2)
TILES(tile_pairs, 1)
TILES(tile_pairs, 2)

static int run_regblock(const tu_model *m, const kernel *k, const pol_facts *f, int x, int y,
                        arena *a, pol_edit_vec *out, const char **why)
{
    return pol_transform_regblock(m, k, f, x, y, a, out, why);
}

/* what may combine with what: a block reshape only with POL_WITH_RESHAPE
 * transforms (edits that write no new text naming threadIdx, blockIdx,
 * blockDim or gridDim: the reshape renames every use in the original text,
 * and an overlapping edit is refused when rendered); a loop rewrite (one at
 * most) only with POL_WITH_LOOP_REWRITE transforms */
#define TALLER POL_LAUNCH_TALLER_GRID
#define BLOCKS POL_LAUNCH_RESHAPED_BLOCKS
#define NARROWER POL_LAUNCH_NARROWER_GRID
#define SM POL_LAUNCH_SM_GRID
#define LOOP POL_REWRITES_LOOP
#define W_RESHAPE POL_WITH_RESHAPE
#define W_LOOP POL_WITH_LOOP_REWRITE

/* in this order: the order of combinations' members and of the chooser's
 * model file */
static const pol_catalogue_entry catalogue[] = {
    {"regacc", "regacc", 0, 0, run_regacc, 0, 0},
    {"restrict", "restrict", W_RESHAPE | W_LOOP, 0, run_restrict, 0, 0},
    {"launch_bounds", "launch_bounds", W_LOOP, 0, run_launch_bounds, 0, 0},
    {"launch_bounds2", "launch_bounds", W_LOOP, 0, run_launch_bounds, 2, 0},
    {"unroll2", "unroll", W_RESHAPE, 0, run_unroll, 2, 0},
    {"unroll4", "unroll", W_RESHAPE, 0, run_unroll, 4, 0},
    {"unroll8", "unroll", W_RESHAPE, 0, run_unroll, 8, 0},
    {"ldg", "ldg", W_RESHAPE, 0, run_ldg, 0, 0},
    {"fast_math", "fast_math", W_RESHAPE, 0, run_fast_math, 0, 0},
    {"stage", "stage", LOOP, 0, run_stage, 0, 0},
    {"warp_rows", "warp_rows", LOOP, 0, run_warp_rows, 1, 0},
    {"warp_rows4", "warp_rows", LOOP, 0, run_warp_rows, 4, 0},
    {"warp_rows8", "warp_rows", LOOP, 0, run_warp_rows, 8, 0},
    {"block_reduce", "block_reduce", LOOP, 0, run_block_reduce, 0, 0},
    {"wide_rows", "wide_rows", LOOP, TALLER, run_wide_rows, 0, 0},
    {"atomic_warp", "atomic_warp", 0, 0, run_atomic_warp, 0, 0},
    {"interchange", "interchange", 0, 0, run_interchange, 0, 0},
    {"spread", "spread", 0, TALLER, run_spread, 0, 0},
    {"split_loop", "split_loop", 0, TALLER, run_split_loop, 64, 0},
    {"split_loop256", "split_loop", 0, TALLER, run_split_loop, 256, 0},
    {"regblock2x2", "regblock", LOOP, 0, run_regblock, 2, 2},
    {"regblock4x2", "regblock", LOOP, 0, run_regblock, 4, 2},
    {"regblock4x4", "regblock", LOOP, 0, run_regblock, 4, 4},
    {"col_split", "col_split", LOOP, TALLER, run_col_split, 32, 0},
    {"col_split16", "col_split", LOOP, TALLER, run_col_split, 16, 0},
    {"regblock2x1", "regblock", LOOP, 0, run_regblock, 2, 1},
    {"col_split8", "col_split", LOOP, TALLER, run_col_split, 8, 0},
    {"vec_loads", "vec_loads", LOOP, 0, run_vec_loads, 0, 0},
    {"block_wide2", "block_wide", 0, BLOCKS, run_reshape, 2, 0},
    {"block_wide4", "block_wide", 0, BLOCKS, run_reshape, 4, 0},
    {"block_narrow2", "block_narrow", 0, BLOCKS, run_reshape, -2, 0},
    {"grid_stride4", "grid_stride", 0, NARROWER, run_grid_stride, 4, 0},
    {"grid_stride16", "grid_stride", 0, NARROWER, run_grid_stride, 16, 0},
    {"grid_sm", "grid_sm", 0, SM, run_grid_sm, 0, 0},
    {"stencil_tile", "stencil_tile", LOOP, 0, run_stencil_tile, 0, 0},
    {"tile_dot64", "tile_dot", LOOP, 0, run_tile_dot_ahead1, 64, 0},
    {"tile_dot128", "tile_dot", LOOP, 0, run_tile_dot_ahead1, 128, 0},
    {"tile_pairs64", "tile_pairs", LOOP, TALLER, run_tile_pairs_ahead1, 64, 0},
    {"tile_dot32", "tile_dot", LOOP, 0, run_tile_dot_ahead1, 32, 0},
    {"wide_rows_vec", "wide_rows", LOOP, TALLER, run_wide_rows, 4, 0},
    {"col_split4", "col_split", LOOP, TALLER, run_col_split, 4, 0},
    {"sweep8", "sweep", LOOP, 0, run_sweep, 8, 0},
    {"sweep16", "sweep", LOOP, 0, run_sweep, 16, 0},
    {"sweep8_spread", "sweep", LOOP, TALLER, run_sweep, 8, 1},
    {"sweep16_spread", "sweep", LOOP, TALLER, run_sweep, 16, 1},
    {"sweep_tile32_spread", "sweep_tile", LOOP, TALLER, run_sweep_tile, 32, 1},
    {"sweep_tile64_spread", "sweep_tile", LOOP, TALLER, run_sweep_tile, 64, 0},
    {"sweep_tile16_spread", "sweep_tile", LOOP, TALLER, run_sweep_tile, 16, 1},
    {"tile_dot32_split4", "tile_dot", LOOP, 0, run_tile_dot_ahead1, 32, 4},
    {"tile_dot64_split4", "tile_dot", LOOP, 0, run_tile_dot_ahead1, 64, 4},
    {"tile_pairs64_split4", "tile_pairs", LOOP, TALLER, run_tile_pairs_ahead1, 64, 4},
    {"sweep_lanes", "sweep", LOOP, TALLER, run_sweep_lanes, 1, 0},
    {"sweep_lanes4", "sweep", LOOP, TALLER, run_sweep_lanes, 4, 0},
    {"tile_dot32_split4_ahead2", "tile_dot", LOOP, 0, run_tile_dot_ahead2, 32, 4},
    {"tile_dot64_ahead2", "tile_dot", LOOP, 0, run_tile_dot_ahead2, 64, 0},
    {"tile_pairs64_ahead2", "tile_pairs", LOOP, TALLER, run_tile_pairs_ahead2, 64, 0},
    {"sweep_warp", "sweep", LOOP, TALLER, run_sweep_warp, 0, 0},
};

size_t pol_transform_count(void)
{
    return sizeof catalogue / sizeof catalogue[0];
}

const pol_catalogue_entry *pol_catalogue_at(size_t i)
{
    return i < pol_transform_count() ? &catalogue[i] : NULL;
}

const char *pol_transform_name(size_t i)
{
    return i < pol_transform_count() ? catalogue[i].name : NULL;
}

long pol_transform_index(const char *name, size_t n)
{
    for (size_t i = 0; i < pol_transform_count(); i++)
        if (strlen(catalogue[i].name) == n && strncmp(catalogue[i].name, name, n) == 0)
            return (long)i;
    return -1;
}

const pol_catalogue_entry *pol_catalogue_find(const char *name)
{
    long i = pol_transform_index(name, strlen(name));
    return i < 0 ? NULL : &catalogue[i];
}

int pol_transform(const char *name, const tu_model *m, const kernel *k, const pol_facts *f,
                  arena *a, pol_edit_vec *out, const char **why)
{
    *why = NULL;
    const pol_catalogue_entry *e = pol_catalogue_find(name);
    if (!k->is_definition) {
        *why = "a declaration only";
        return 1;
    }
    if (k->body_in_macro) {
        *why = "part of the body comes out of a macro";
        return 1;
    }
    if (!e)
        return -1;
    return e->run(m, k, f, e->factor, e->factor2, a, out, why);
}
