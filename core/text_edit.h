/*
 * text_edit.h: one edit of a text ([begin, end) replaced by text) and the one
 * applier that the policy (a kernel's variant) and the rewriter (a whole
 * file, optionally with #line directives) both use.
 */
#ifndef CL1_TEXT_EDIT_H
#define CL1_TEXT_EDIT_H

#include "core.h"

typedef struct text_edit {
    size_t begin, end; /* [begin, end) of the original text */
    const char *text;  /* what replaces it (NUL-terminated) */
    int order;         /* insertions (begin == end) at one place: increasing */
} text_edit;
typedef VEC(text_edit) text_edit_vec;

typedef enum text_edit_status {
    TEXT_EDIT_OK = 0,
    TEXT_EDIT_OVERLAP, /* an edit begins before the previous one ends (or
                          before the range) */
    TEXT_EDIT_OUTSIDE  /* an edit ends before it begins, or past the range */
} text_edit_status;

/* Sorts edits in place (by begin; at one place insertions come before a
 * replacement starting there, in increasing order, then as given) and
 * checks them against the range [lo, hi).  TEXT_EDIT_OK, or what is wrong
 * with the first bad edit, whose index (after sorting) goes to *bad. */
text_edit_status text_edits_sort_check(text_edit *edits, size_t n, size_t lo, size_t hi,
                                       size_t *bad);

/* Called around each edit's text: after = 0 before it, 1 after it. */
typedef void text_edit_hook(void *ctx, const text_edit *e, int after, strbuf *out);

/* Appends text[lo, hi) with edits (sorted and checked as above) applied to
 * out; hook (may be NULL) adds what goes around each edit. */
void text_edits_apply(const char *text, size_t lo, size_t hi, const text_edit *edits, size_t n,
                      text_edit_hook *hook, void *ctx, strbuf *out);

#endif
