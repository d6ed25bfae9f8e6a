/*
 * edits.c: a kernel's definition with a set of edits applied.  Transforms
 * compute their edits on the original text independently; a combination is
 * the union of their edits, so they must not overlap (core/text_edit.h
 * applies them).
 */
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

int pol_edits_render(const tu_model *m, const kernel *k, const pol_edit *edits, size_t n,
                     arena *a, const char **source_out, strbuf *err)
{
    const source_file *sf = model_file(m, k->decl_range.file);
    if (!sf || k->decl_range.end > sf->len || k->decl_range.begin > k->decl_range.end) {
        sb_printf(err, "%s: the kernel's text is not available", k->qualified_name);
        return -1;
    }
    size_t begin = k->decl_range.begin, end = k->decl_range.end, bad = 0;
    pol_edit *sorted = xcalloc(n ? n : 1, sizeof *sorted);
    if (n)
        memcpy(sorted, edits, n * sizeof *edits);
    text_edit_status st = text_edits_sort_check(sorted, n, begin, end, &bad);
    int rc = 0;
    if (st != TEXT_EDIT_OK) {
        sb_printf(err, "%s: edits overlap or leave the kernel (at byte %zu)", k->qualified_name,
                  sorted[bad].begin);
        rc = st == TEXT_EDIT_OVERLAP ? 1 : -1;
    } else {
        strbuf out;
        sb_init(&out);
        text_edits_apply(sf->text, begin, end, sorted, n, NULL, NULL, &out);
        *source_out = arena_strdup(a, sb_str(&out));
        sb_free(&out);
    }
    free(sorted);
    return rc;
}
