/*
 * transform_unroll.c: `unrollN`: "#pragma unroll N" before every innermost
 * for loop of the kernel that has no pragma of its own.
 */
#include <string.h>

#include "internal.h"

int pol_transform_unroll(const tu_model *m, const kernel *k, int factor, arena *a,
                         pol_edit_vec *out, const char **why)
{
    size_t len;
    const char *text = pol_file_text(m, &k->decl_range, &len);
    size_t edits = 0;
    for (size_t i = 0; text && i < k->body.len; i++) {
        const body_node *L = &k->body.items[i];
        if (L->kind != BODY_LOOP || strcmp(L->loop_kind, "for") != 0 || L->has_inner_loop ||
            L->range.in_macro)
            continue;
        int blanks;
        size_t ls = pol_line_start(text, L->range.begin, &blanks);
        if (pol_pragma_before(text, blanks ? ls : L->range.begin))
            continue;
        pol_edit e;
        e.order = 1;
        if (blanks) {
            e.begin = e.end = ls;
            e.text = arena_printf(a, "%s#pragma unroll %d%s", pol_indent(text, ls, a), factor,
                                  pol_newline(text, len, ls));
        } else {
            e.begin = e.end = L->range.begin;
            const char *nl = pol_newline(text, len, L->range.begin);
            e.text = arena_printf(a, "%s#pragma unroll %d%s", nl, factor, nl);
        }
        vec_push(out, e);
        edits++;
    }
    if (!edits) {
        *why = "no innermost for loop without a pragma";
        return 1;
    }
    return 0;
}
