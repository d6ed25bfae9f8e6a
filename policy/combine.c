/*
 * combine.c: a combination of the catalogue's transforms ("a+b+c") applied
 * to a kernel, the union of their edits on the original; what may combine
 * with what is read from each entry's flags and launch rule (catalogue.c).
 */
#include <string.h>

#include "internal.h"

/* the catalogue's row for t; unknown names have no flags (pol_transform
 * reports them) */
static const pol_catalogue_entry *row(const char *t)
{
    static const pol_catalogue_entry unknown = {"", "", 0, 0, NULL, 0, 0};
    const pol_catalogue_entry *e = pol_catalogue_find(t);
    return e ? e : &unknown;
}

static int taller_grid(const pol_catalogue_entry *e)
{
    return e->launch == POL_LAUNCH_TALLER_GRID;
}

/* a block reshape, or a narrower grid x (transform_reshape.c) */
static int reshapes_blocks(const pol_catalogue_entry *e)
{
    return e->launch == POL_LAUNCH_RESHAPED_BLOCKS || e->launch == POL_LAUNCH_NARROWER_GRID ||
           e->launch == POL_LAUNCH_SM_GRID;
}

static int combines_with_reshape(const pol_catalogue_entry *e)
{
    return (e->flags & POL_WITH_RESHAPE) || reshapes_blocks(e);
}

static int rewrites_loop(const pol_catalogue_entry *e)
{
    return (e->flags & POL_REWRITES_LOOP) != 0;
}

int pol_apply_combination(const char *combination, const tu_model *m, const kernel *k,
                          const pol_facts *f, arena *a, const char **source_out,
                          const char **why, strbuf *err)
{
    pol_edit_vec edits = {0};
    char *copy = arena_strdup(a, combination), *save = NULL;
    int rc = 0;
    *why = NULL;
    /* the loop rewriters rewrite the loop statement whole: one of them at
     * most, and the transforms that edit inside it do not combine with it */
    int whole = 0, taller = 0, reshapes = 0, others = 0;
    for (char *t = strtok_r(copy, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
        const pol_catalogue_entry *e = row(t);
        whole += rewrites_loop(e), taller += taller_grid(e), reshapes += reshapes_blocks(e);
        others += !combines_with_reshape(e);
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
    const char *seen_families[64];
    size_t n_seen = 0;
    copy = arena_strdup(a, combination), save = NULL;
    for (char *t = strtok_r(copy, "+", &save); t && rc == 0; t = strtok_r(NULL, "+", &save)) {
        const pol_catalogue_entry *e = row(t);
        if (whole > 1 || (whole && !(e->flags & POL_WITH_LOOP_REWRITE) && !rewrites_loop(e))) {
            /* the wording the golden outputs hold (the POL_REWRITES_LOOP
             * and POL_WITH_LOOP_REWRITE rows) */
            *why = "stage, warp_rows, wide_rows, block_reduce, regblock, col_split, vec_loads "
                   "and stencil_tile rewrite the loop or reads themselves: one of them, "
                   "combined with restrict and launch_bounds only";
            rc = 1;
            break;
        }
        /* two members of one family: two factors of one idea */
        for (size_t i = 0; *e->family && i < n_seen && rc == 0; i++)
            if (strcmp(seen_families[i], e->family) == 0) {
                *why = arena_printf(a, "two %s factors", e->family);
                rc = 1;
            }
        if (rc)
            break;
        if (*e->family && n_seen < sizeof seen_families / sizeof seen_families[0])
            seen_families[n_seen++] = e->family;
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
