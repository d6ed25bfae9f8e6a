/*
 * transform_spread.c: `spread`: a one-dimensional kernel whose threads each
 * run a loop of their own (a row, a column, a recurrence) and whose grid has
 * few blocks keeps few SMs busy: 1024 rows in blocks of 256 run on 4 of
 * 132 SMs.  The variant runs on a grid F times as tall (F = threads per
 * block / 32, core/launch_rule.h) and gives each block of it one slice of
 * the original block's threads:
 *
 *     slice = (blockDim.x + gridDim.y - 1) / gridDim.y
 *     if (threadIdx.x >= slice || blockIdx.y * slice + threadIdx.x >= blockDim.x) return;
 *     i = blockIdx.x * blockDim.x + blockIdx.y * slice + threadIdx.x
 *
 * so every original index is computed once, by a block that can sit on
 * another SM; the rest of the threads leave at once.  Correct at any grid
 * height (one row of blocks is the original).  Only when the index
 * declaration opens the body and nothing else tells threads apart.
 */
#include <string.h>

#include "internal.h"

int pol_transform_spread(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                         pol_edit_vec *out, const char **why)
{
    if (!f->flat_grid) {
        *why = "the captured grids are not one block high (the variant's grid is taller)";
        return 1;
    }
    if (f->block[0] < 64 || f->block[0] % 32 != 0 || f->block[1] != 1 || f->block[2] != 1) {
        *why = "the captured blocks are not one-dimensional with at least two warps";
        return 1;
    }
    int factor = f->block[0] / 32;
    size_t len;
    const char *text = pol_file_text(m, &k->decl_range, &len);
    const char *var = NULL;
    size_t init = 0;
    long decl = text ? pol_thread_index_decl(m, k, 'x', a, &var, &init) : -1;
    if (decl < 0) {
        *why = "no \"i = blockIdx.x * blockDim.x + threadIdx.x\" at the top of the body";
        return 1;
    }
    const char *other = pol_other_thread_identity(m, k, 1);
    if (other) {
        *why = arena_printf(a, "something else tells the threads apart (%s)", other);
        return 1;
    }
    int loops = 0;
    for (size_t i = 0; i < k->body.len; i++) {
        if (k->body.items[i].kind == BODY_SYNC) {
            *why = "a barrier";
            return 1;
        }
        loops += k->body.items[i].kind == BODY_LOOP;
    }
    if (!loops) {
        *why = "no loop: each thread's work is short, more SMs would not pay";
        return 1;
    }
    /* the declaration opens the body: no statement runs before the early
     * return */
    const body_node *b = &k->body.items[decl];
    size_t open = k->body_range.begin;
    if (open >= len || text[open] != '{') {
        *why = "no body text";
        return 1;
    }
    size_t at = open + 1;
    while (at < b->range.begin && strchr(" \t\r\n", text[at]))
        at++;
    if (at != b->range.begin) {
        *why = "a statement comes before the thread index's declaration";
        return 1;
    }
    int blanks;
    size_t ls = pol_line_start(text, b->range.begin, &blanks);
    const char *indent = blanks ? pol_indent(text, ls, a) : "    ";
    const char *nl = pol_newline(text, len, ls);
    pol_edit head = {b->range.begin, b->range.begin,
                     arena_printf(a,
                                  "unsigned cl1cc_slice = (blockDim.x + gridDim.y - 1) / gridDim.y;%s"
                                  "%sif (threadIdx.x >= cl1cc_slice || blockIdx.y * cl1cc_slice + "
                                  "threadIdx.x >= blockDim.x)%s"
                                  "%s    return;%s%s",
                                  nl, indent, nl, indent, nl, indent),
                     0};
    pol_edit index = {init, b->range.end,
                      " blockIdx.x * blockDim.x + (blockIdx.y * cl1cc_slice + threadIdx.x)", 0};
    vec_push(out, pol_grid_y_marker(m, k, factor, a));
    vec_push(out, head);
    vec_push(out, index);
    return 0;
}
