/*
 * splice.c: applies byte-range edits to a file's text, optionally with
 * #line directives that keep the user's line numbers for the compiler.
 */
#include "rewrite.h"

#include <stdlib.h>
#include <string.h>

static unsigned line_at(const char *text, size_t offset, size_t *cursor,
                        unsigned *line)
{
    for (; *cursor < offset; (*cursor)++)
        if (text[*cursor] == '\n')
            (*line)++;
    return *line;
}

static void put_line_directive(strbuf *out, unsigned line, const char *path)
{
    /* a #line must start a line of its own */
    if (out->len && out->data[out->len - 1] != '\n')
        sb_putc(out, '\n');
    sb_printf(out, "#line %u \"", line);
    for (const char *p = path; *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_putc(out, '\\');
        sb_putc(out, *p);
    }
    sb_puts(out, "\"\n");
}

/* the #line directives around each replacement */
typedef struct {
    const char *text, *path;
    size_t cursor;
    unsigned line;
} line_state;

/* the blanks that put what follows at the column of offset */
static void pad_to_column(strbuf *out, const char *text, size_t offset)
{
    size_t bol = offset;
    while (bol > 0 && text[bol - 1] != '\n')
        bol--;
    for (size_t c = bol; c < offset; c++)
        sb_putc(out, text[c] == '\t' ? '\t' : ' ');
}

static void around_edit(void *ctx, const text_edit *e, int after, strbuf *out)
{
    line_state *ls = ctx;
    /* before: the replacement reports as the lines of what it replaces, at
     * the column where the range began; after: the rest of the original
     * line follows at its own line and column */
    size_t at = after ? e->end : e->begin;
    put_line_directive(out, line_at(ls->text, at, &ls->cursor, &ls->line), ls->path);
    pad_to_column(out, ls->text, at);
}

rw_status rw_splice(const char *text, size_t len, const char *path,
                    rw_edit *edits, size_t n_edits, int line_directives,
                    strbuf *out, strbuf *err)
{
    size_t bad = 0;
    switch (text_edits_sort_check(edits, n_edits, 0, len, &bad)) {
    case TEXT_EDIT_OK:
        break;
    case TEXT_EDIT_OUTSIDE:
        sb_printf(err, "%s: edit [%zu,%zu) lies outside the file (%zu bytes)", path,
                  edits[bad].begin, edits[bad].end, len);
        return RW_BAD_EDITS;
    case TEXT_EDIT_OVERLAP:
        sb_printf(err, "%s: edits [%zu,%zu) and [%zu,%zu) overlap", path,
                  edits[bad - 1].begin, edits[bad - 1].end, edits[bad].begin, edits[bad].end);
        return RW_BAD_EDITS;
    }
    line_state ls = {text, path, 0, 1};
    if (line_directives)
        put_line_directive(out, 1, path);
    text_edits_apply(text, 0, len, edits, n_edits, line_directives ? around_edit : NULL, &ls, out);
    return RW_OK;
}
