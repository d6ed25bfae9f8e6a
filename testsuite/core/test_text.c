/*
 * test_text.c: the core's text tools: the one edit type and its applier
 * (order of insertions, overlaps, hooks) and the one scanner of CUDA text
 * (comments, literals, brackets).
 */
#include "core.h"
#include "cuda_text.h"
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

static size_t at(const char *t, const char *needle)
{
    return (size_t)(strstr(t, needle) - t);
}

static void test_cuda_text(void)
{
    const char *t = "f(a, /* ) */ \")\\\"\", ')', g[1], // )\n {x}) ;";
    size_t n = strlen(t);
    /* the ')' in the comment, the string and the character do not close it */
    CHECK(ctext_close_bracket(t, n, 1) == at(t, ") ;"));
    CHECK(ctext_close_bracket(t, n, at(t, "[1]")) == at(t, "], //"));
    CHECK(ctext_close_bracket(t, n, at(t, "{x}")) == at(t, "}) ;"));
    CHECK(ctext_close_bracket(t, n, 0) == 0);             /* no bracket there */
    CHECK(ctext_close_bracket("f(a", 3, 1) == 0);         /* not closed */
    /* comments: a line comment ends at its newline (a backslash-newline
     * continues it), a block comment past its end */
    const char *c = "x // a \\\n b\n y /* c */z";
    size_t cn = strlen(c);
    CHECK(ctext_skip_comment(c, cn, 0) == 0);
    CHECK(ctext_skip_comment(c, cn, 2) == at(c, "\n y"));
    CHECK(ctext_skip_comment(c, cn, at(c, "/*")) == at(c, "z"));
    CHECK(ctext_skip_comment("/* open", 7, 0) == 7);
    CHECK(ctext_skip_blanks(c, cn, at(c, "\n y") + 2) == at(c, "y /*"));
    CHECK(ctext_skip_blanks(c, cn, at(c, " /*")) == at(c, "z"));
    /* literals: escapes inside, an unterminated one stops at its line's end */
    const char *l = "'\\'' \"a\\\"b\" \"open\n\"";
    size_t ln = strlen(l);
    CHECK(ctext_skip_literal(l, ln, 0) == 4);
    CHECK(ctext_skip_literal(l, ln, 5) == at(l, " \"open"));
    CHECK(ctext_skip_literal(l, ln, at(l, "\"open")) == at(l, "\n"));
    CHECK(ctext_skip_literal(l, ln, 4) == 4); /* no quote there */
    /* an instantiation's template arguments, nested ones whole */
    arena a;
    arena_init(&a);
    const char *args[4];
    const char *inst = "ns::k<Pair<int, 2>, const float,  (Phase)0 >";
    CHECK(ctext_template_args(inst, strlen(inst), &a, args, 4) == 3);
    CHECK(strcmp(args[0], "Pair<int, 2>") == 0 && strcmp(args[1], "const float") == 0 &&
          strcmp(args[2], "(Phase)0") == 0);
    CHECK(ctext_template_args(inst, strlen(inst), &a, args, 2) == -1); /* more than max */
    CHECK(ctext_template_args("k", 1, &a, args, 4) == -1);            /* no list */
    CHECK(ctext_template_args("k<int> ", 7, &a, args, 4) == -1);      /* not at the end */
    arena_free(&a);
}

int main(void)
{
    test_text_edit();
    test_cuda_text();
    return CHECK_REPORT("test_text");
}
