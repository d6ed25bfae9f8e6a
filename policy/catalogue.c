/*
 * catalogue.c: the built-in transforms by name, and combinations of them
 * ("regacc+restrict+unroll4"): the union of their edits on the original.
 */
#include <string.h>

#include "internal.h"

static const char *const names[] = {"regacc",  "restrict", "launch_bounds", "unroll2",
                                    "unroll4", "unroll8",  "ldg",          "fast_math", "stage",
                                    "warp_rows", "warp_rows4", "warp_rows8", "block_reduce", "wide_rows",
                                    "atomic_warp", "interchange", "spread", "split_loop", "split_loop256",
                                    "regblock2x2", "regblock4x2", "regblock4x4", "col_split", "col_split16",
                                    "regblock2x1", "col_split8", "vec_loads", "block_wide2",
                                    "block_wide4", "block_narrow2", "grid_stride4",
                                    "grid_stride16", "grid_sm", "stencil_tile"};

size_t pol_transform_count(void)
{
    return sizeof names / sizeof names[0];
}

const char *pol_transform_name(size_t i)
{
    return i < pol_transform_count() ? names[i] : NULL;
}

int pol_transform(const char *name, const tu_model *m, const kernel *k, const pol_facts *f,
                  arena *a, pol_edit_vec *out, const char **why)
{
    *why = NULL;
    if (!k->is_definition) {
        *why = "a declaration only";
        return 1;
    }
    if (k->body_in_macro) {
        *why = "part of the body comes out of a macro";
        return 1;
    }
    if (strcmp(name, "regacc") == 0)
        return pol_transform_regacc(m, k, f, a, out, why);
    if (strcmp(name, "restrict") == 0)
        return pol_transform_restrict(m, k, f, a, out, why);
    if (strcmp(name, "launch_bounds") == 0)
        return pol_transform_launch_bounds(m, k, f, a, out, why);
    if (strcmp(name, "unroll2") == 0)
        return pol_transform_unroll(m, k, 2, a, out, why);
    if (strcmp(name, "unroll4") == 0)
        return pol_transform_unroll(m, k, 4, a, out, why);
    if (strcmp(name, "unroll8") == 0)
        return pol_transform_unroll(m, k, 8, a, out, why);
    if (strcmp(name, "ldg") == 0)
        return pol_transform_ldg(m, k, f, a, out, why);
    if (strcmp(name, "fast_math") == 0)
        return pol_transform_fast_math(m, k, f, a, out, why);
    if (strcmp(name, "stage") == 0)
        return pol_transform_stage(m, k, f, a, out, why);
    if (strcmp(name, "warp_rows") == 0)
        return pol_transform_warp_rows(m, k, f, 1, a, out, why);
    if (strcmp(name, "warp_rows4") == 0)
        return pol_transform_warp_rows(m, k, f, 4, a, out, why);
    if (strcmp(name, "warp_rows8") == 0)
        return pol_transform_warp_rows(m, k, f, 8, a, out, why);
    if (strcmp(name, "wide_rows") == 0)
        return pol_transform_wide_rows(m, k, f, a, out, why);
    if (strcmp(name, "block_reduce") == 0)
        return pol_transform_block_reduce(m, k, f, a, out, why);
    if (strcmp(name, "spread") == 0)
        return pol_transform_spread(m, k, f, a, out, why);
    if (strcmp(name, "split_loop") == 0)
        return pol_transform_split_loop(m, k, f, 64, a, out, why);
    if (strcmp(name, "split_loop256") == 0)
        return pol_transform_split_loop(m, k, f, 256, a, out, why);
    if (strcmp(name, "regblock2x1") == 0)
        return pol_transform_regblock(m, k, f, 2, 1, a, out, why);
    if (strcmp(name, "regblock2x2") == 0)
        return pol_transform_regblock(m, k, f, 2, 2, a, out, why);
    if (strcmp(name, "regblock4x2") == 0)
        return pol_transform_regblock(m, k, f, 4, 2, a, out, why);
    if (strcmp(name, "regblock4x4") == 0)
        return pol_transform_regblock(m, k, f, 4, 4, a, out, why);
    if (strcmp(name, "col_split") == 0)
        return pol_transform_col_split(m, k, f, 32, a, out, why);
    if (strcmp(name, "col_split8") == 0)
        return pol_transform_col_split(m, k, f, 8, a, out, why);
    if (strcmp(name, "col_split16") == 0)
        return pol_transform_col_split(m, k, f, 16, a, out, why);
    if (strcmp(name, "vec_loads") == 0)
        return pol_transform_vec_loads(m, k, f, a, out, why);
    if (strcmp(name, "block_wide2") == 0)
        return pol_transform_reshape(m, k, f, 2, a, out, why);
    if (strcmp(name, "block_wide4") == 0)
        return pol_transform_reshape(m, k, f, 4, a, out, why);
    if (strcmp(name, "block_narrow2") == 0)
        return pol_transform_reshape(m, k, f, -2, a, out, why);
    if (strcmp(name, "grid_stride4") == 0)
        return pol_transform_grid_stride(m, k, f, 4, a, out, why);
    if (strcmp(name, "grid_stride16") == 0)
        return pol_transform_grid_stride(m, k, f, 16, a, out, why);
    if (strcmp(name, "grid_sm") == 0)
        return pol_transform_grid_sm(m, k, f, a, out, why);
    if (strcmp(name, "stencil_tile") == 0)
        return pol_transform_stencil_tile(m, k, f, a, out, why);
    if (strcmp(name, "interchange") == 0)
        return pol_transform_interchange(m, k, f, a, out, why);
    if (strcmp(name, "atomic_warp") == 0)
        return pol_transform_atomic_warp(m, k, f, a, out, why);
    return -1;
}

/* the variant states a taller grid (core/launch_rule.h): one such rule */
static int taller_grid(const char *t)
{
    return strcmp(t, "wide_rows") == 0 || strcmp(t, "spread") == 0 || strncmp(t, "split_loop", 10) == 0 ||
           strncmp(t, "col_split", 9) == 0;
}

/* the variant reshapes the launch's blocks or its grid's x
 * (transform_reshape.c) */
static int reshapes_blocks(const char *t)
{
    return strncmp(t, "block_wide", 10) == 0 || strncmp(t, "block_narrow", 12) == 0 ||
           strncmp(t, "grid_stride", 11) == 0 || strcmp(t, "grid_sm") == 0;
}

/* what combines with a block reshape: edits that write no new text naming
 * threadIdx, blockIdx, blockDim or gridDim (the reshape renames every use
 * in the original text; an overlapping edit is refused when rendered) */
static int combines_with_reshape(const char *t)
{
    return strcmp(t, "restrict") == 0 || strcmp(t, "ldg") == 0 || strncmp(t, "unroll", 6) == 0 ||
           strcmp(t, "fast_math") == 0 || reshapes_blocks(t);
}

static int rewrites_loop(const char *t)
{
    return strcmp(t, "stage") == 0 || strncmp(t, "warp_rows", 9) == 0 ||
           strcmp(t, "block_reduce") == 0 || strcmp(t, "wide_rows") == 0 || strncmp(t, "regblock", 8) == 0 ||
           strncmp(t, "col_split", 9) == 0 || strcmp(t, "vec_loads") == 0 || strcmp(t, "stencil_tile") == 0;
}

int pol_apply_combination(const char *combination, const tu_model *m, const kernel *k,
                          const pol_facts *f, arena *a, const char **source_out,
                          const char **why, strbuf *err)
{
    pol_edit_vec edits = {0};
    char *copy = arena_strdup(a, combination), *save = NULL;
    int unrolls = 0, rc = 0;
    *why = NULL;
    /* stage, warp_rows* and block_reduce rewrite the loop statement whole:
     * one of them at most, and the transforms that edit inside it do not
     * combine with it */
    int whole = 0, taller = 0, reshapes = 0, others = 0;
    for (char *t = strtok_r(copy, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
        whole += rewrites_loop(t), taller += taller_grid(t), reshapes += reshapes_blocks(t);
        others += !combines_with_reshape(t);
    }
    if (taller > 1) {
        *why = "two transforms that each make the grid taller";
        return 1;
    }
    if (reshapes > 1 || (reshapes && others)) {
        *why = "a block reshape or grid-stride loop combines only with restrict, ldg, unroll "
               "and fast_math";
        return 1;
    }
    copy = arena_strdup(a, combination), save = NULL;
    for (char *t = strtok_r(copy, "+", &save); t && rc == 0; t = strtok_r(NULL, "+", &save)) {
        if (whole > 1 || (whole && strcmp(t, "restrict") != 0 && strcmp(t, "launch_bounds") != 0 &&
                          !rewrites_loop(t))) {
            *why = "stage, warp_rows, wide_rows, block_reduce, regblock, col_split, vec_loads and stencil_tile rewrite the loop or reads themselves: one of them, "
                   "combined with restrict and launch_bounds only";
            rc = 1;
            break;
        }
        if (strncmp(t, "unroll", 6) == 0 && ++unrolls > 1) {
            *why = "two unroll factors";
            rc = 1;
            break;
        }
        rc = pol_transform(t, m, k, f, a, &edits, why);
        if (rc < 0)
            sb_printf(err, "unknown transform '%s'", t);
    }
    if (rc == 0 && !edits.len) {
        *why = "nothing to change";
        rc = 1;
    }
    if (rc == 0) {
        rc = pol_edits_render(m, k, edits.items, edits.len, a, source_out, err);
        if (rc == 1) {
            *why = arena_printf(a, "the transforms edit the same text (%s)", sb_str(err));
            sb_clear(err);
        }
    }
    vec_free(&edits);
    return rc;
}
