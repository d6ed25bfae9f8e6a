/*
 * source_map.c: from libclang locations to byte ranges in the user's files,
 * the file bytes themselves, and the index of macro expansions that tells
 * which ranges are made by macros (and so never rewritten).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int fe_is_user_location(CXSourceLocation loc)
{
    if (clang_Location_isInSystemHeader(loc))
        return 0;
    CXFile file;
    clang_getExpansionLocation(loc, &file, NULL, NULL, NULL);
    return file != NULL;
}

char *fe_string(fe_context *cx, CXString s)
{
    const char *c = clang_getCString(s);
    char *copy = arena_strdup(cx->strings, c ? c : "");
    clang_disposeString(s);
    return copy;
}

const char *fe_file_path(fe_context *cx, CXFile file)
{
    if (!file)
        return NULL;
    CXString name = clang_getFileName(file);
    const char *raw = clang_getCString(name);
    if (!raw) {
        clang_disposeString(name);
        return NULL;
    }
    tu_model *m = cx->model;
    for (size_t i = 0; i < m->files.len; i++)
        if (strcmp(m->files.items[i].path, raw) == 0) {
            clang_disposeString(name);
            return m->files.items[i].path;
        }
    source_file sf;
    sf.path = arena_strdup(cx->strings, raw);
    clang_disposeString(name);
    size_t size = 0;
    const char *bytes = clang_getFileContents(cx->tu, file, &size);
    sf.text = bytes ? arena_strndup(cx->strings, bytes, size) : "";
    sf.len = bytes ? size : 0;
    vec_push(&m->files, sf);
    return sf.path;
}

static void location_at(fe_context *cx, CXSourceLocation loc, const char **file,
                        unsigned *offset, unsigned *line, unsigned *col)
{
    CXFile f = NULL;
    clang_getExpansionLocation(loc, &f, line, col, offset);
    *file = fe_file_path(cx, f);
}

src_range fe_range_of(fe_context *cx, CXSourceRange r)
{
    src_range out;
    memset(&out, 0, sizeof out);
    if (clang_Range_isNull(r))
        return out;
    const char *end_file = NULL;
    location_at(cx, clang_getRangeStart(r), &out.file, &out.begin, &out.line,
                &out.col);
    location_at(cx, clang_getRangeEnd(r), &end_file, &out.end, &out.end_line,
                &out.end_col);
    if (!out.file || out.file != end_file || out.end < out.begin) {
        /* A range that starts and ends in different files (or nowhere) is
         * not something we could ever rewrite. */
        out.in_macro = 1;
        out.present = out.file != NULL;
        if (out.end < out.begin)
            out.end = out.begin;
        return out;
    }
    out.present = 1;
    out.in_macro = fe_range_in_macro(cx, &out);
    return out;
}

src_range fe_cursor_range(fe_context *cx, CXCursor c)
{
    return fe_range_of(cx, clang_getCursorExtent(c));
}

char *fe_text_of(fe_context *cx, const src_range *r)
{
    const source_file *sf = model_file(cx->model, r->file);
    if (!sf || r->end > sf->len || r->begin > r->end)
        return arena_strdup(cx->strings, "");
    return arena_strndup(cx->strings, sf->text + r->begin, r->end - r->begin);
}

char *fe_cursor_text(fe_context *cx, CXCursor c)
{
    src_range r = fe_cursor_range(cx, c);
    return fe_text_of(cx, &r);
}

/* ---- macro expansions ----------------------------------------------------- */

static int span_compare(const void *a, const void *b)
{
    const macro_span *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    if (c)
        return c;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

static enum CXChildVisitResult visit_expansion(CXCursor c, CXCursor parent,
                                               CXClientData data)
{
    fe_context *cx = data;
    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_MacroExpansion)
        return CXChildVisit_Continue;
    if (!fe_is_user_location(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f1 = NULL, f2 = NULL;
    unsigned b = 0, e = 0;
    clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &e);
    const char *file = fe_file_path(cx, f1);
    if (!file || f1 != f2)
        return CXChildVisit_Continue;
    macro_span span = {file, b, e, c};
    vec_push(&cx->expansions, span);
    return CXChildVisit_Continue;
}

void fe_index_macro_expansions(fe_context *cx)
{
    clang_visitChildren(clang_getTranslationUnitCursor(cx->tu),
                        visit_expansion, cx);
    if (cx->expansions.len)
        qsort(cx->expansions.items, cx->expansions.len, sizeof(macro_span),
              span_compare);
}

/* A range is made by a macro when one macro expansion holds it and more,
 * or when an expansion straddles either end: then its text is not what the
 * user wrote at that place.  A range that is one whole invocation, or that
 * contains whole ones (a kernel whose header uses __global__), is the
 * user's own text. */
int fe_range_in_macro(const fe_context *cx, const src_range *r)
{
    for (size_t i = 0; i < cx->expansions.len; i++) {
        const macro_span *s = &cx->expansions.items[i];
        if (s->file != r->file && strcmp(s->file, r->file) != 0)
            continue;
        if (s->begin >= r->end && r->end > r->begin)
            continue;
        if (s->end <= r->begin)
            continue;
        /* exactly one whole invocation, BLOCKS(n) as a launch argument, is
         * the user's own text */
        if (s->begin == r->begin && s->end == r->end)
            continue;
        if (s->begin <= r->begin && r->end <= s->end)
            return 1;
        if (s->begin < r->begin && r->begin < s->end)
            return 1;
        if (s->begin < r->end && r->end < s->end)
            return 1;
    }
    return 0;
}

int fe_range_is_invocation(const fe_context *cx, const src_range *r)
{
    for (size_t i = 0; i < cx->expansions.len; i++) {
        const macro_span *s = &cx->expansions.items[i];
        if ((s->file == r->file || strcmp(s->file, r->file) == 0) &&
            s->begin == r->begin && s->end == r->end)
            return 1;
    }
    return 0;
}
