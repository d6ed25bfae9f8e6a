/*
 * edits.c: a kernel's definition with a set of edits applied.  Transforms
 * compute their edits on the original text independently; a combination is
 * the union of their edits, so they must not overlap.
 */
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

static int edit_compare(const void *pa, const void *pb)
{
    const pol_edit *a = pa, *b = pb;
    if (a->begin != b->begin)
        return a->begin < b->begin ? -1 : 1;
    /* at one place insertions come before a replacement that starts there */
    int a_ins = a->begin == a->end, b_ins = b->begin == b->end;
    if (a_ins != b_ins)
        return a_ins ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

int pol_edits_render(const tu_model *m, const kernel *k, const pol_edit *edits, size_t n,
                     arena *a, const char **source_out, strbuf *err)
{
    const source_file *sf = model_file(m, k->decl_range.file);
    if (!sf || k->decl_range.end > sf->len || k->decl_range.begin > k->decl_range.end) {
        sb_printf(err, "%s: the kernel's text is not available", k->qualified_name);
        return -1;
    }
    size_t begin = k->decl_range.begin, end = k->decl_range.end;
    pol_edit *sorted = xcalloc(n ? n : 1, sizeof *sorted);
    memcpy(sorted, edits, n * sizeof *edits);
    qsort(sorted, n, sizeof *sorted, edit_compare);
    strbuf out;
    sb_init(&out);
    size_t at = begin;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        const pol_edit *e = &sorted[i];
        if (e->begin < at || e->end < e->begin || e->end > end) {
            sb_printf(err, "%s: edits overlap or leave the kernel (at byte %zu)",
                      k->qualified_name, e->begin);
            rc = e->begin < at ? 1 : -1;
            break;
        }
        sb_append(&out, sf->text + at, e->begin - at);
        sb_puts(&out, e->text);
        at = e->end;
    }
    if (rc == 0) {
        sb_append(&out, sf->text + at, end - at);
        *source_out = arena_strdup(a, sb_str(&out));
    }
    sb_free(&out);
    free(sorted);
    return rc;
}
