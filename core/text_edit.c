/* text_edit.c: sorting, checking and applying edits of a text */
#include "text_edit.h"

#include <stdlib.h>

typedef struct {
    text_edit e;
    size_t given; /* its place as given: ties keep it */
} numbered;

static int edit_compare(const void *pa, const void *pb)
{
    const numbered *x = pa, *y = pb;
    const text_edit *a = &x->e, *b = &y->e;
    if (a->begin != b->begin)
        return a->begin < b->begin ? -1 : 1;
    /* at one place insertions come before a replacement that starts there */
    int a_ins = a->begin == a->end, b_ins = b->begin == b->end;
    if (a_ins != b_ins)
        return a_ins ? -1 : 1;
    if (a->order != b->order)
        return a->order < b->order ? -1 : 1;
    return x->given < y->given ? -1 : x->given > y->given;
}

text_edit_status text_edits_sort_check(text_edit *edits, size_t n, size_t lo, size_t hi,
                                       size_t *bad)
{
    if (n > 1) {
        numbered *sorted = xcalloc(n, sizeof *sorted);
        for (size_t i = 0; i < n; i++)
            sorted[i] = (numbered){edits[i], i};
        qsort(sorted, n, sizeof *sorted, edit_compare);
        for (size_t i = 0; i < n; i++)
            edits[i] = sorted[i].e;
        free(sorted);
    }
    size_t at = lo;
    for (size_t i = 0; i < n; i++) {
        const text_edit *e = &edits[i];
        if (e->begin < at) {
            *bad = i;
            return TEXT_EDIT_OVERLAP;
        }
        if (e->end < e->begin || e->end > hi) {
            *bad = i;
            return TEXT_EDIT_OUTSIDE;
        }
        at = e->end;
    }
    return TEXT_EDIT_OK;
}

void text_edits_apply(const char *text, size_t lo, size_t hi, const text_edit *edits, size_t n,
                      text_edit_hook *hook, void *ctx, strbuf *out)
{
    size_t at = lo;
    for (size_t i = 0; i < n; i++) {
        sb_append(out, text + at, edits[i].begin - at);
        if (hook)
            hook(ctx, &edits[i], 0, out);
        sb_puts(out, edits[i].text);
        if (hook)
            hook(ctx, &edits[i], 1, out);
        at = edits[i].end;
    }
    sb_append(out, text + at, hi - at);
}
