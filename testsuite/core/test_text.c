/*
 * test_text.c: the core's text tools: the one edit type and its applier
 * (order of insertions, overlaps, hooks) and the one scanner of CUDA text
 * (comments, literals, brackets).
 */
#include "core.h"
#include "text_edit.h"

#include <string.h>

#include "check.h"

static const char *applied(const char *text, text_edit *e, size_t n, text_edit_status *st,
                           strbuf *out)
{
    size_t bad = 0;
    sb_clear(out);
    *st = text_edits_sort_check(e, n, 0, strlen(text), &bad);
    if (*st == TEXT_EDIT_OK)
        text_edits_apply(text, 0, strlen(text), e, n, NULL, NULL, out);
    return sb_str(out);
}

static void bracket_hook(void *ctx, const text_edit *e, int after, strbuf *out)
{
    (void)e;
    (*(int *)ctx)++;
    sb_putc(out, after ? ']' : '[');
}

static void test_text_edit(void)
{
    strbuf out;
    sb_init(&out);
    text_edit_status st;
    /* insertions at one place by order, then as given; before a
     * replacement starting there, whatever the order given */
    text_edit e1[] = {{2, 4, "XY", 0}, {2, 2, "b", 1}, {2, 2, "a", 0}, {2, 2, "c", 1},
                      {6, 6, "!", 0}};
    CHECK(strcmp(applied("012345", e1, 5, &st, &out), "01abcXY45!") == 0 && st == TEXT_EDIT_OK);
    /* overlaps, and edits past the end or backwards */
    text_edit e2[] = {{3, 5, "y", 0}, {1, 4, "x", 0}};
    applied("012345", e2, 2, &st, &out);
    CHECK(st == TEXT_EDIT_OVERLAP);
    text_edit e3[] = {{1, 9, "x", 0}};
    applied("012345", e3, 1, &st, &out);
    CHECK(st == TEXT_EDIT_OUTSIDE);
    text_edit e4[] = {{4, 3, "x", 0}};
    applied("012345", e4, 1, &st, &out);
    CHECK(st == TEXT_EDIT_OUTSIDE);
    /* a sub-range: an edit before it overlaps, one after it is outside */
    size_t bad = 9;
    text_edit e5[] = {{0, 1, "x", 0}};
    CHECK(text_edits_sort_check(e5, 1, 2, 5, &bad) == TEXT_EDIT_OVERLAP && bad == 0);
    text_edit e6[] = {{3, 3, "x", 0}, {4, 6, "y", 0}};
    CHECK(text_edits_sort_check(e6, 2, 2, 5, &bad) == TEXT_EDIT_OUTSIDE && bad == 1);
    /* within [2, 5): the range's text only, hooks around each edit */
    text_edit e7[] = {{4, 5, "four", 0}, {3, 3, "+", 0}};
    int calls = 0;
    CHECK(text_edits_sort_check(e7, 2, 2, 5, &bad) == TEXT_EDIT_OK);
    sb_clear(&out);
    text_edits_apply("0123456", 2, 5, e7, 2, bracket_hook, &calls, &out);
    CHECK(strcmp(sb_str(&out), "2[+]3[four]") == 0 && calls == 4);
    sb_free(&out);
}

int main(void)
{
    test_text_edit();
    return CHECK_REPORT("test_text");
}
